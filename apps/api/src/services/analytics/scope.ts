import {
  chatbots,
  conversations,
  inferenceLogs,
  pageViews,
  users,
  userWorkspaceRoles,
  type Db,
} from '@atelier/db';
import type { AnalyticsPeriod, AnalyticsQuery } from '@atelier/schemas';
import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { forbidden, notFound } from '../errors';
import type { createWorkspacesService } from '../workspaces/workspaces-service';

/**
 * What a caller may see, decided once per call: organization admins the whole organization (or the
 * workspace they name), creators the workspaces they are members of, plain users their own usage.
 */
export interface Scope {
  organizationId: string;
  /** null: every workspace of the organization. Empty: none (a creator of no workspace). */
  workspaceIds: string[] | null;
  /** Set for plain users: only their own usage. */
  ownUserId: string | null;
  chatbotId: string | null;
  from: Date;
  to: Date;
  period: AnalyticsPeriod;
  tz: string;
}

export interface ScopeDeps {
  db: Db;
  workspaces: ReturnType<typeof createWorkspacesService>;
}

const WEEK_MS = 7 * 86_400_000;

/** The caller's scope for a query, or 404/403 when it names what the caller may not see. */
export async function resolveScope(
  deps: ScopeDeps,
  principal: Principal,
  query: AnalyticsQuery & { user_id?: string | undefined },
): Promise<Scope> {
  const { db } = deps;
  const ownUserId = principal.role === 'user' ? principal.userId : null;
  if (ownUserId && query.user_id && query.user_id !== ownUserId) {
    throw forbidden('You can only see your own usage.');
  }
  let workspaceIds: string[] | null = null;
  if (query.workspace_id) {
    await deps.workspaces.visible(principal, query.workspace_id);
    workspaceIds = [query.workspace_id];
  } else if (principal.role === 'creator') {
    const rows = await db
      .select({ id: userWorkspaceRoles.workspaceId })
      .from(userWorkspaceRoles)
      .where(eq(userWorkspaceRoles.userId, principal.userId));
    workspaceIds = rows.map((r) => r.id);
  }
  if (query.chatbot_id) {
    const [bot] = await db
      .select({ workspaceId: chatbots.workspaceId })
      .from(chatbots)
      .where(and(eq(chatbots.id, query.chatbot_id), eq(chatbots.organizationId, principal.organizationId)));
    if (!bot || (workspaceIds && !workspaceIds.includes(bot.workspaceId))) throw notFound('chatbot');
  }
  if (query.user_id && !ownUserId) {
    const [user] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, query.user_id), eq(users.organizationId, principal.organizationId)));
    if (!user) throw notFound('user');
  }
  const to = query.to ? new Date(query.to) : new Date();
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - WEEK_MS);
  return {
    organizationId: principal.organizationId,
    workspaceIds,
    ownUserId,
    chatbotId: query.chatbot_id ?? null,
    from,
    to,
    period: query.period,
    tz: query.tz,
  };
}

const inList = (column: Parameters<typeof inArray>[0], ids: string[]) =>
  ids.length > 0 ? inArray(column, ids) : sql`false`;

/** Who and what a scope covers, without its range. */
export type ScopeWho = Pick<Scope, 'organizationId' | 'workspaceIds' | 'ownUserId' | 'chatbotId'>;

/** The inference logs of the scope and range (served by the (scope column, created_at, id) indexes). */
export function logsInScope(scope: Scope): SQL;
export function logsInScope(scope: ScopeWho, options: { range: false }): SQL;
export function logsInScope(scope: ScopeWho & Partial<Scope>, options = { range: true }): SQL {
  const l = inferenceLogs;
  const range = options.range && scope.from && scope.to;
  return and(
    eq(l.organizationId, scope.organizationId),
    scope.workspaceIds ? inList(l.workspaceId, scope.workspaceIds) : undefined,
    scope.ownUserId ? eq(l.userId, scope.ownUserId) : undefined,
    scope.chatbotId ? eq(l.chatbotId, scope.chatbotId) : undefined,
    range ? gte(l.createdAt, scope.from!) : undefined,
    range ? lt(l.createdAt, scope.to!) : undefined,
  )!;
}

/** Conversations of the scope: their chatbot's workspace, or the user's own. */
export function conversationsInScope(scope: Scope): SQL {
  const c = conversations;
  const botsOf = (ids: string[]) =>
    inSubquery(
      c.chatbotId,
      sql`select ${chatbots.id} from ${chatbots} where ${inList(chatbots.workspaceId, ids)}`,
    );
  return and(
    eq(c.organizationId, scope.organizationId),
    scope.workspaceIds ? botsOf(scope.workspaceIds) : undefined,
    scope.ownUserId ? eq(c.userId, scope.ownUserId) : undefined,
    scope.chatbotId ? eq(c.chatbotId, scope.chatbotId) : undefined,
  )!;
}

/** Page views of the scope: the members of its workspaces, or the user's own (no chatbot filter). */
export function pageViewsInScope(scope: Scope): SQL {
  const p = pageViews;
  const membersOf = (ids: string[]) =>
    inSubquery(
      p.userId,
      sql`select ${userWorkspaceRoles.userId} from ${userWorkspaceRoles} where ${inList(userWorkspaceRoles.workspaceId, ids)}`,
    );
  return and(
    eq(p.organizationId, scope.organizationId),
    scope.workspaceIds ? membersOf(scope.workspaceIds) : undefined,
    scope.ownUserId ? eq(p.userId, scope.ownUserId) : undefined,
    gte(p.createdAt, scope.from),
    lt(p.createdAt, scope.to),
  )!;
}

function inSubquery(column: Parameters<typeof eq>[0], subquery: SQL): SQL {
  return sql`${column} in (${subquery})`;
}
