import { chatbots, inferenceLogs, users, type Db } from '@atelier/db';
import type { LogDetail, LogFacetsAnswer, LogsAnswer, LogsQuery, LogSummary } from '@atelier/schemas';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { notFound } from '../errors';
import {
  after,
  chatbotJoin,
  contentKept,
  decodeCursor,
  encodeCursor,
  feedbackOf,
  kept,
  logsWhere,
  newestFirst,
  preciseAt,
  userJoin,
} from './log-query';
import { logsInScope, type Scope, type ScopeWho } from './scope';

const l = inferenceLogs;
const PREVIEW_CHARS = 200;

const summaryColumns = {
  id: l.id,
  at: preciseAt,
  chatbotId: l.chatbotId,
  chatbotName: l.chatbotName,
  userId: l.userId,
  userEmail: users.email,
  modelName: l.modelName,
  providerModelName: l.providerModelName,
  providerType: l.providerType,
  status: l.status,
  error: l.error,
  fallback: l.fallback,
  streamed: l.streamed,
  firstTokenMs: l.firstTokenMs,
  totalMs: l.totalMs,
  requestWords: l.requestWords,
  responseWords: l.responseWords,
  errorMessage: l.errorMessage,
  feedback: feedbackOf,
};
type SummaryRow = { [K in keyof typeof summaryColumns]: unknown } & { at: string };

function toBase(r: SummaryRow): Omit<LogSummary, 'user_message_preview'> {
  return {
    id: r.id as string,
    created_at: new Date(r.at).toISOString(),
    chatbot_id: r.chatbotId as string | null,
    chatbot_name: r.chatbotName as string,
    user_id: r.userId as string | null,
    user_email: (r.userEmail as string | null) ?? null,
    model_name: r.modelName as string,
    provider_model_name: r.providerModelName as string,
    provider_type: r.providerType as string,
    status: r.status as LogSummary['status'],
    error: r.error as boolean,
    fallback: r.fallback as boolean,
    streamed: r.streamed as boolean,
    first_token_ms: r.firstTokenMs as number | null,
    total_ms: r.totalMs as number,
    request_words: r.requestWords as number,
    response_words: r.responseWords as number,
    error_message: r.errorMessage as string,
    feedback: (r.feedback as LogSummary['feedback']) ?? null,
  };
}

/** A page of logs, newest first, and the cursor of the next page (null at the end). */
export async function listLogs(db: Db, scope: Scope, query: LogsQuery): Promise<LogsAnswer> {
  const position = query.cursor ? decodeCursor(query.cursor) : null;
  const rows = await db
    .select({ ...summaryColumns, preview: sql<string>`left(${kept(l.userMessage)}, ${PREVIEW_CHARS})` })
    .from(l)
    .leftJoin(chatbots, chatbotJoin)
    .leftJoin(users, userJoin)
    .where(and(logsWhere(scope, query), after(position)))
    .orderBy(...newestFirst)
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    logs: page.map((r) => ({ ...toBase(r), user_message_preview: r.preview })),
    next_cursor: rows.length > query.limit && last ? encodeCursor({ at: last.at, id: last.id }) : null,
  };
}

/** One log of the caller's scope, whatever its date; 404 for any other id. */
export async function logDetail(db: Db, scope: ScopeWho, id: string): Promise<LogDetail> {
  const [row] = await db
    .select({
      ...summaryColumns,
      conversationId: l.conversationId,
      modelId: l.modelId,
      completePrompt: kept(l.completePrompt),
      userMessage: kept(l.userMessage),
      response: kept(l.response),
      inputTokens: l.inputTokens,
      outputTokens: l.outputTokens,
      credits: l.credits,
      contentStored: contentKept,
    })
    .from(l)
    .leftJoin(chatbots, chatbotJoin)
    .leftJoin(users, userJoin)
    .where(and(eq(l.id, id), logsInScope(scope, { range: false })));
  if (!row) throw notFound('log');
  return {
    ...toBase(row),
    conversation_id: row.conversationId,
    model_id: row.modelId,
    complete_prompt: row.completePrompt,
    user_message: row.userMessage,
    response: row.response,
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
    credits: Number(row.credits),
    content_stored: Boolean(row.contentStored),
  };
}

const FACETS = 200;

/** The chatbots, models and users the logs of the scope and range name, for the filters. */
export async function logFacets(db: Db, scope: Scope): Promise<LogFacetsAnswer> {
  const where = logsInScope(scope);
  const [bots, models, people] = await Promise.all([
    db
      .select({ id: l.chatbotId, name: sql<string>`max(${l.chatbotName})` })
      .from(l)
      .where(and(where, isNotNull(l.chatbotId)))
      .groupBy(l.chatbotId)
      .orderBy(sql`2`)
      .limit(FACETS),
    db.selectDistinct({ name: l.modelName }).from(l).where(where).orderBy(asc(l.modelName)).limit(FACETS),
    db
      .selectDistinct({ id: users.id, email: users.email })
      .from(l)
      .innerJoin(users, userJoin)
      .where(where)
      .orderBy(asc(users.email))
      .limit(FACETS),
  ]);
  return {
    chatbots: bots.map((b) => ({ id: b.id ?? '', name: b.name })),
    models: models.map((m) => m.name),
    users: people,
  };
}
