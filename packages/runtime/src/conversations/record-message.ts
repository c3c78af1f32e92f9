import { randomUUID } from 'node:crypto';
import {
  statementRows,
  stmt,
  verbatim,
  writeTogether,
  type Combine,
  type Db,
  type Statement,
} from '@atelier/db';
import { meterWriteCtes, type MeterWrite } from '@atelier/metering';
import { partsText, type AnswerSource, type MessagePart } from '@atelier/schemas';
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

/** An assistant's answer to store (see `recordAnswer`). */
interface Answer {
  id: string;
  conversationId: string;
  content: MessagePart[];
  error: boolean;
}

/**
 * Answers as named CTEs: `a` (the answers, numbered `n`), `saved` (each a message of its conversation,
 * after its last one and after the answers before it here) and `touched` (each conversation's preview
 * and order, from its latest answer here). Whatever the content holds is stored: NUL and lone
 * surrogates become U+FFFD. One text for any number of answers (they are one JSON value).
 */
function answerCtes(answers: readonly Answer[]): Statement {
  const rows = answers.map(({ id, conversationId, content: given, error }, n) => {
    const content = storableJson(given);
    const text = partsText(content);
    return { n, id, conversation_id: conversationId, content, error, preview: preview(text) };
  });
  return stmt`a as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as a(n int, id uuid, conversation_id uuid, content jsonb, error boolean, preview text)),
    saved as (
      insert into messages (id, conversation_id, role, content, error, created_at)
      select a.id, a.conversation_id, 'assistant', a.content, a.error,
             ${createdAfterLast(verbatim('a.conversation_id'))} + a.n * interval '1 microsecond'
      from a),
    touched as (
      update conversations c set updated_at = now(), last_message_preview = a.preview
      from (select distinct on (conversation_id) * from a order by conversation_id, n desc) a
      where c.id = a.conversation_id)`;
}

/** Answers of one organization with their calls' inference logs and charges (`meterWriteCtes`). */
const meteredAnswers: Combine<Answer & { meter: MeterWrite }> = (answers) =>
  stmt`with ${answerCtes(answers)}, ${meterWriteCtes(
    answers[0]!.meter.organizationId,
    answers.map((a) => a.meter),
  )} select 0 as n where false`;

/**
 * Stores an assistant's answer and touches its conversation. With `meter` (its call's inference log and
 * charge), the answers of the organization that end together are written with theirs in one statement
 * (see writeTogether): an answer costs a share of one round trip. Questions: `recordQuestion`.
 */
export async function recordAnswer(
  db: Db,
  conversationId: string,
  content: MessagePart[],
  error = false,
  meter?: MeterWrite,
  /** Chosen by the caller when the client must know it before the write (the chat's `start` event). */
  id: string = randomUUID(),
): Promise<string> {
  const answer = { id, conversationId, content, error };
  if (meter) await writeTogether(db, meter.organizationId, meteredAnswers, { ...answer, meter });
  else await statementRows(db, stmt`with ${answerCtes([answer])} select 1`);
  return id;
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
    const text = partsText(content);
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
