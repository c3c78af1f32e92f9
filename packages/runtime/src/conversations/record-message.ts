import { conversations, messages, queryRows, type Db } from '@atelier/db';
import type { MessagePart } from '@atelier/schemas';
import { eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { storableJson } from '@atelier/db';

const PREVIEW = 120;
export const preview = (text: string) => (text.length > PREVIEW ? `${text.slice(0, PREVIEW - 1)}…` : text);

/** A title from the first message: its first line, cut at a word near 60 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  if (line.length <= 60) return line || 'New conversation';
  const cut = line.slice(0, 60);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 30 ? cut.lastIndexOf(' ') : 60)}…`;
}

/**
 * The two writes of a message, as SQL for named CTEs: `saved` inserts it (answering its id), `touched`
 * updates its conversation (preview, order, title from the first message). Whatever the content holds
 * is stored: NUL and lone surrogates become U+FFFD.
 */
function messageWrites(
  db: Db,
  conversationId: string,
  role: 'user' | 'assistant',
  content: MessagePart[],
  error: boolean,
  id?: string,
) {
  content = storableJson(content);
  const text = content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(' ');
  const insert = db
    .insert(messages)
    .values({ ...(id ? { id } : {}), conversationId, role, content, error })
    .returning({ id: messages.id });
  const touch = db
    .update(conversations)
    .set({
      updatedAt: new Date(),
      lastMessagePreview: preview(text),
      ...(role === 'user'
        ? {
            title: sql`case when ${conversations.title} = '' then ${titleFrom(text)} else ${conversations.title} end`,
          }
        : {}),
    })
    .where(eq(conversations.id, conversationId));
  return { saved: insert.getSQL(), touched: touch.getSQL() };
}

/**
 * Stores a message and touches its conversation in one statement. `alongside` are more writes that
 * belong with it, as named CTEs (the inference log and the charge, see `meterWriteCtes` of
 * @atelier/metering), so an answer costs a single round trip.
 */
export async function recordMessage(
  db: Db,
  conversationId: string,
  role: 'user' | 'assistant',
  content: MessagePart[],
  error = false,
  alongside?: SQLWrapper,
  /** Chosen by the caller when the client must know it before the write (the chat's `start` event). */
  id?: string,
): Promise<string> {
  const { saved: insert, touched: touch } = messageWrites(db, conversationId, role, content, error, id);
  const [saved] = await queryRows<{ id: string }>(
    db,
    sql`with saved as (${insert}), touched as (${touch})${alongside ? sql`, ${alongside}` : sql``} select id from saved`,
  );
  return saved!.id;
}

/**
 * A message's writes as drizzle CTEs, for a statement that does more with it: a chat's question is
 * stored by the same statement that inserts its run (`db.with(...messageCtes(...)).insert(runs)`).
 */
export function messageCtes(
  db: Db,
  conversationId: string,
  role: 'user' | 'assistant',
  content: MessagePart[],
) {
  const { saved, touched } = messageWrites(db, conversationId, role, content, false);
  return [db.$with('saved', { id: sql<string>`id` }).as(saved), db.$with('touched', {}).as(touched)] as const;
}

/** A run's answer as the columns `answerWrites` reads: its message content, preview and error flag. */
export function answerColumns(text: string, failed: boolean) {
  const answer: MessagePart[] = [{ type: 'text', text }];
  return { answer, preview: preview(text), failed };
}

/**
 * Named CTEs storing the answers a statement's CTE `source` lists (columns `conversation_id`, `answer`,
 * `preview`, `failed`, see `answerColumns`): each becomes its conversation's assistant message and
 * touches the conversation, like `recordMessage`, in the statement that ended the runs. A conversation
 * deleted meanwhile gets nothing and fails nothing.
 */
export function answerWrites(source: string): SQL {
  const from = sql.raw(source);
  return sql`answers_saved as (
      insert into messages (conversation_id, role, content, error)
      select e.conversation_id, 'assistant', e.answer, e.failed
      from ${from} e join conversations c on c.id = e.conversation_id),
    answers_touched as (
      update conversations c set updated_at = now(), last_message_preview = e.preview
      from ${from} e where c.id = e.conversation_id)`;
}
