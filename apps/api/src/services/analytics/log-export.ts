import { Readable, pipeline } from 'node:stream';
import { chatbots, inferenceLogs, users, type Db } from '@atelier/db';
import type { LogExportFormat, LogFilters } from '@atelier/schemas';
import { stringify } from 'csv-stringify';
import { and, type SQL } from 'drizzle-orm';
import {
  after,
  chatbotJoin,
  feedbackOf,
  kept,
  logsWhere,
  newestFirst,
  preciseAt,
  userJoin,
  type Position,
} from './log-query';
import type { Scope } from './scope';

const l = inferenceLogs;
/** Rows read per query: the most an export holds in memory at once. */
export const EXPORT_BATCH = 1000;

/** The spec's inference-log fields, in its order, then the ids. */
export const EXPORT_COLUMNS = [
  'timestamp',
  'chatbot',
  'user',
  'model',
  'provider_model_name',
  'provider_type',
  'complete_prompt',
  'user_message',
  'response',
  'request_words',
  'response_words',
  'first_token_ms',
  'total_ms',
  'streamed',
  'fallback',
  'error',
  'error_message',
  'status',
  'feedback',
  'id',
  'chatbot_id',
  'user_id',
] as const;
export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | number | boolean | null>;

const exportColumns = {
  id: l.id,
  at: preciseAt,
  chatbotId: l.chatbotId,
  chatbotName: l.chatbotName,
  userId: l.userId,
  userEmail: users.email,
  modelName: l.modelName,
  providerModelName: l.providerModelName,
  providerType: l.providerType,
  // Empty for metrics-only chatbots, whatever the row holds.
  completePrompt: kept(l.completePrompt),
  userMessage: kept(l.userMessage),
  response: kept(l.response),
  requestWords: l.requestWords,
  responseWords: l.responseWords,
  firstTokenMs: l.firstTokenMs,
  totalMs: l.totalMs,
  streamed: l.streamed,
  fallback: l.fallback,
  error: l.error,
  errorMessage: l.errorMessage,
  status: l.status,
  feedback: feedbackOf,
};

/**
 * The logs of the scope, range and filters, newest first, one batch per query: each batch starts
 * after the last row of the one before (keyset on created_at, id), so no query grows with the export
 * and memory holds one batch. The consumer pulls: the next batch is read only when it asks.
 */
export async function* exportBatches(db: Db, scope: Scope, filters: LogFilters): AsyncGenerator<ExportRow[]> {
  const where = logsWhere(scope, filters);
  let position: Position | null = null;
  for (;;) {
    const rows = await batch(db, where, position);
    if (rows.length > 0) yield rows.map(toExportRow);
    const last = rows.at(-1);
    if (rows.length < EXPORT_BATCH || !last) return;
    position = { at: last.at, id: last.id };
  }
}

const batch = (db: Db, where: SQL, position: Position | null) =>
  db
    .select(exportColumns)
    .from(l)
    .leftJoin(chatbots, chatbotJoin)
    .leftJoin(users, userJoin)
    .where(and(where, after(position)))
    .orderBy(...newestFirst)
    .limit(EXPORT_BATCH);

function toExportRow(r: Awaited<ReturnType<typeof batch>>[number]): ExportRow {
  return {
    timestamp: r.at,
    chatbot: r.chatbotName,
    user: r.userEmail,
    model: r.modelName,
    provider_model_name: r.providerModelName,
    provider_type: r.providerType,
    complete_prompt: r.completePrompt,
    user_message: r.userMessage,
    response: r.response,
    request_words: r.requestWords,
    response_words: r.responseWords,
    first_token_ms: r.firstTokenMs,
    total_ms: r.totalMs,
    streamed: r.streamed,
    fallback: r.fallback,
    error: r.error,
    error_message: r.errorMessage,
    status: r.status,
    feedback: r.feedback ?? null,
    id: r.id,
    chatbot_id: r.chatbotId,
    user_id: r.userId,
  };
}

/** A cell a spreadsheet would run as a formula starts with a quote instead (OWASP's CSV injection advice). */
const neutralize = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** The export as a byte stream: CSV (csv-stringify escapes) or JSON lines, read at the client's pace. */
export function exportStream(batches: AsyncIterable<ExportRow[]>, format: LogExportFormat): Readable {
  if (format === 'jsonl') {
    return Readable.from(
      (async function* () {
        for await (const batch of batches) yield batch.map((row) => `${JSON.stringify(row)}\n`).join('');
      })(),
      { objectMode: false },
    );
  }
  const rows = Readable.from(
    (async function* () {
      for await (const batch of batches) yield* batch;
    })(),
  );
  const csv = stringify({
    header: true,
    columns: [...EXPORT_COLUMNS],
    cast: { boolean: (b) => (b ? 'true' : 'false'), string: neutralize },
  });
  // An error on either side destroys both; the reply then ends the connection early.
  return pipeline(rows, csv, () => undefined);
}
