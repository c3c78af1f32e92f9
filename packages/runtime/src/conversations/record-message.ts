import { conversations, messages, queryRows, type Db } from '@atelier/db';
import type { MessagePart } from '@atelier/schemas';
import { eq, sql, type SQLWrapper } from 'drizzle-orm';
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
 * Stores a message and touches its conversation (preview, order, title from the first message) in one
 * statement. `alongside` are more writes that belong with it, as named CTEs (the inference log and the
 * charge, see `meterWriteCtes` of @atelier/metering), so an answer costs a single round trip. Whatever the content holds is stored: NUL and lone surrogates become U+FFFD.
 */
export async function recordMessage(
  db: Db,
  conversationId: string,
  role: 'user' | 'assistant',
  content: MessagePart[],
  error = false,
  alongside?: SQLWrapper,
): Promise<string> {
  content = storableJson(content);
  const text = content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(' ');
  const insert = db
    .insert(messages)
    .values({ conversationId, role, content, error })
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
  const [saved] = await queryRows<{ id: string }>(
    db,
    sql`with saved as (${insert.getSQL()}), touched as (${touch.getSQL()})${alongside ? sql`, ${alongside}` : sql``} select id from saved`,
  );
  return saved!.id;
}
