import { statementRows, statementRowsTogether, stmt, verbatim, type Db, type Statement } from '@atelier/db';
import type { AnswerSource, MessagePart } from '@atelier/schemas';
import { storableJson } from '@atelier/db';
import { isolating, oneAtATimePer } from '../group-commit';

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
 * A new message's time: now, or just after its conversation's last message when that is as late. Messages
 * are read in time order, and a clock can give two of them the same time (the embedded database's ticks
 * in milliseconds: a question and its fast answer), so the answer could be read before its question.
 */
function createdAfterLast(conversationId: Statement): Statement {
  return stmt`greatest(now(), (select max(m.created_at) + interval '1 microsecond' from messages m where m.conversation_id = ${conversationId}))`;
}

/**
 * The two writes of an assistant's answer, as named CTEs: `saved` inserts it (answering its id),
 * `touched` updates its conversation (preview, order). Whatever the content holds is stored: NUL and
 * lone surrogates become U+FFFD. Fixed texts (see `Statement` in @atelier/db): an answer's writes are
 * the hottest statements of a chat. Questions are written by `questionCtes`.
 */
function answerCtes(conversationId: string, content: MessagePart[], error: boolean, id?: string): Statement {
  content = storableJson(content);
  const text = content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(' ');
  const values = stmt`${conversationId}::uuid, 'assistant', ${JSON.stringify(content)}::jsonb, ${error}::boolean, ${createdAfterLast(stmt`${conversationId}::uuid`)}`;
  const insert = id
    ? stmt`insert into messages (id, conversation_id, role, content, error, created_at) values (${id}::uuid, ${values})`
    : stmt`insert into messages (conversation_id, role, content, error, created_at) values (${values})`;
  return stmt`saved as (${insert} returning id), touched as (
      update conversations set updated_at = ${new Date()}::timestamptz, last_message_preview = ${preview(text)}::text
      where id = ${conversationId}::uuid)`;
}

/**
 * Stores an assistant's answer and touches its conversation in one statement. `alongside` are more
 * writes that belong with it, as named CTEs (the inference log and the charge, see `meterWriteCtes` of
 * @atelier/metering), so an answer costs a single round trip. Questions: `recordQuestion`.
 */
export async function recordAnswer(
  db: Db,
  conversationId: string,
  content: MessagePart[],
  error = false,
  /** With its `key`: the organization the writes charge (see statementRowsTogether). */
  alongside?: { ctes: Statement; key: string },
  /** Chosen by the caller when the client must know it before the write (the chat's `start` event). */
  id?: string,
): Promise<string> {
  const writes = answerCtes(conversationId, content, error, id);
  const statement = stmt`with ${writes}${alongside ? stmt`, ${alongside.ctes}` : verbatim('')} select id from saved`;
  // With a charge alongside, the organization's credit plan is written: see statementRowsTogether.
  const [saved] = alongside
    ? await statementRowsTogether<{ id: string }>(db, statement, alongside.key)
    : await statementRows<{ id: string }>(db, statement);
  return saved!.id;
}

/** A user's question to a conversation. */
export interface Question {
  conversationId: string;
  content: MessagePart[];
}

/**
 * Questions of different conversations as named CTEs: `q` (the questions, numbered `n`), `saved` (each
 * a message of its conversation, answering `id` and `conversation_id`) and `touched` (its conversation:
 * preview, order, title from the first message), as `answerCtes` does for an answer. Whatever the
 * content holds is stored (see storableJson).
 */
export function questionCtes(questions: Question[]): Statement {
  const rows = questions.map(({ conversationId, content: given }, n) => {
    const content = storableJson(given);
    const text = content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(' ');
    return { n, conversation_id: conversationId, content, preview: preview(text), title: titleFrom(text) };
  });
  return stmt`q as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as q(n int, conversation_id uuid, content jsonb, preview text, title text)),
    saved as (
      insert into messages (conversation_id, role, content, error, created_at)
      select q.conversation_id, 'user', q.content, false, ${createdAfterLast(verbatim('q.conversation_id'))}
      from q
      returning id, conversation_id),
    touched as (
      update conversations c set updated_at = now(), last_message_preview = q.preview,
        title = case when c.title = '' then q.title else c.title end
      from q where c.id = q.conversation_id)`;
}

/** Questions of different conversations stored by one statement; answers the messages' ids, in order. */
async function writeQuestions(db: Db, questions: Question[]): Promise<string[]> {
  const saved = await statementRows<{ id: string; n: number }>(
    db,
    stmt`with ${questionCtes(questions)} select saved.id, q.n from saved join q on q.conversation_id = saved.conversation_id`,
  );
  const ids = new Array<string>(questions.length);
  for (const row of saved) ids[row.n] = row.id;
  return ids;
}

interface QuestionWriter {
  write(question: Question): Promise<{ ok: string } | { error: unknown }>;
  inTurn: ReturnType<typeof oneAtATimePer<string>>;
}
const questionWriters = new WeakMap<Db, QuestionWriter>();

/**
 * Stores a user's question (see `questionCtes`): the questions of one turn of the event loop share a
 * statement, so a burst of chats costs one write and one commit, not one each. A conversation's second
 * question waits for its first (so it is stored after it, by a later statement). A question that cannot
 * be stored (its conversation deleted meanwhile) fails alone.
 */
export async function recordQuestion(
  db: Db,
  conversationId: string,
  content: MessagePart[],
): Promise<string> {
  let writer = questionWriters.get(db);
  if (!writer) {
    writer = { write: isolating((items: Question[]) => writeQuestions(db, items)), inTurn: oneAtATimePer() };
    questionWriters.set(db, writer);
  }
  const { write } = writer;
  const result = await writer.inTurn(conversationId, () => write({ conversationId, content }));
  if ('error' in result) throw result.error;
  return result.ok;
}

/** A run's answer as the columns `answerWrites` reads: its message content (text, then any sources), preview and error flag. */
export function answerColumns(text: string, failed: boolean, sources: readonly AnswerSource[] = []) {
  const answer: MessagePart[] = [{ type: 'text', text }];
  if (sources.length > 0 && !failed) answer.push({ type: 'sources', sources: [...sources] });
  return { answer, preview: preview(text), failed };
}

/**
 * Named CTEs storing the answers a statement's CTE `source` lists (columns `conversation_id`, `answer`,
 * `preview`, `failed`, see `answerColumns`): each becomes its conversation's assistant message and
 * touches the conversation, like `recordAnswer`, in the statement that ended the runs. A conversation
 * deleted meanwhile gets nothing and fails nothing.
 */
export function answerWrites(source: string): Statement {
  const from = verbatim(source);
  return stmt`answers_saved as (
      insert into messages (conversation_id, role, content, error, created_at)
      select e.conversation_id, 'assistant', e.answer, e.failed, ${createdAfterLast(verbatim('e.conversation_id'))}
      from ${from} e join conversations c on c.id = e.conversation_id),
    answers_touched as (
      update conversations c set updated_at = now(), last_message_preview = e.preview
      from ${from} e where c.id = e.conversation_id)`;
}
