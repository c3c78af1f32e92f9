import { chatbots, inferenceLogs, messages, users } from '@atelier/db';
import type { MessageFeedback } from '@atelier/schemas/constants';
import type { LogFilters } from '@atelier/schemas';
import { and, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { AppError } from '../errors';
import { logsInScope, type Scope } from './scope';

const l = inferenceLogs;

/**
 * Content is shown only while the chatbot stores conversations: a metrics-only chatbot's rows are
 * stored empty, and rows written before the switch was turned off are hidden as well.
 */
export const contentKept = sql<boolean>`coalesce(${chatbots.storeConversations}, true)`;
export const kept = (column: PgColumn) => sql<string>`case when ${contentKept} then ${column} else '' end`;

/**
 * The rating of the answer of the log's turn: the first answer of its conversation stored at or after
 * the call (a simple chat stores both in one statement, so at the same instant; a flow's answer comes
 * when its run ends). Read through messages' (conversation_id, created_at) index.
 */
export const feedbackOf = sql<MessageFeedback | null>`(select ${messages.feedback} from ${messages} where ${messages.conversationId} = ${l.conversationId} and ${messages.role} = 'assistant' and ${messages.createdAt} >= ${l.createdAt} order by ${messages.createdAt} limit 1)`;

/** A listing reads the log, its chatbot's content switch and its user's email. */
export const chatbotJoin = eq(chatbots.id, l.chatbotId);
export const userJoin = eq(users.id, l.userId);

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The scope and range, then the filters a person chose. */
export function logsWhere(
  scope: Scope,
  filters: Pick<LogFilters, 'model' | 'status' | 'user_id' | 'q'>,
): SQL {
  const pattern = filters.q ? `%${escapeLike(filters.q)}%` : null;
  return and(
    logsInScope(scope),
    filters.model ? eq(l.modelName, filters.model) : undefined,
    filters.status ? eq(l.status, filters.status) : undefined,
    filters.user_id ? eq(l.userId, filters.user_id) : undefined,
    pattern
      ? or(
          ilike(l.errorMessage, pattern),
          ilike(l.chatbotName, pattern),
          ilike(l.modelName, pattern),
          and(contentKept, or(ilike(l.userMessage, pattern), ilike(l.response, pattern))),
        )
      : undefined,
  )!;
}

/** The instant with its microseconds, so that paging never skips rows written in the same millisecond. */
export const preciseAt = sql<string>`to_char(${l.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export interface Position {
  at: string;
  id: string;
}

export const encodeCursor = (p: Position) => Buffer.from(JSON.stringify([p.at, p.id])).toString('base64url');

export function decodeCursor(cursor: string): Position {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof at === 'string' &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at) &&
      typeof id === 'string' &&
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
    ) {
      return { at, id };
    }
  } catch {
    // answered below
  }
  throw new AppError(422, 'invalid_cursor', 'The page cursor is not valid. Start again from the first page.');
}

/** Rows strictly after the position, newest first: the keyset on (created_at, id). */
export const after = (p: Position | null) =>
  p ? sql`(${l.createdAt}, ${l.id}) < (${p.at}::timestamptz, ${p.id}::uuid)` : undefined;
export const newestFirst = [desc(l.createdAt), desc(l.id)] as const;
