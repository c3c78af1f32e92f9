import { conversations, messages, pageViews, type Db } from '@atelier/db';
import type { EngagementAnswer } from '@atelier/schemas';
import { and, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { num, perBucket, rowsOf } from './buckets';
import { rangeOf } from './range';
import { conversationsInScope, pageViewsInScope, type Scope } from './scope';

const c = conversations;
const m = messages;
const TOP_PAGES = 8;

/** Conversations, messages per conversation, active users and page views over the range. */
export async function engagement(db: Db, scope: Scope): Promise<EngagementAnswer> {
  const inScope = conversationsInScope(scope);
  const started = and(inScope, gte(c.createdAt, scope.from), lt(c.createdAt, scope.to))!;
  // A conversation with a message in the range was updated since its start (the index on
  // (organization_id, updated_at) finds them); its messages come from (conversation_id, created_at).
  const messagesFrom = sql`${m} inner join ${c} on ${eq(c.id, m.conversationId)}`;
  const messagesWhere = and(
    inScope,
    gte(c.updatedAt, scope.from),
    lt(c.createdAt, scope.to),
    gte(m.createdAt, scope.from),
    lt(m.createdAt, scope.to),
  )!;
  const views = pageViewsInScope(scope);

  const [newPerBucket, messagesPerBucket, viewsPerBucket, totals, topPages] = await Promise.all([
    perBucket<{ n: number }>(db, scope, {
      at: c.createdAt,
      from: sql`${c}`,
      where: started,
      columns: sql`count(*)::int as n`,
    }),
    perBucket<{ n: number; users: number }>(db, scope, {
      at: m.createdAt,
      from: messagesFrom,
      where: messagesWhere,
      columns: sql`count(*)::int as n, count(distinct ${c.userId})::int as users`,
    }),
    perBucket<{ n: number }>(db, scope, {
      at: pageViews.createdAt,
      from: sql`${pageViews}`,
      where: views,
      columns: sql`count(*)::int as n`,
    }),
    rowsOf<{ started: number; active: number; messages: number; users: number; views: number }>(
      db,
      sql`select
        (select count(*)::int from ${c} where ${started}) as started,
        (select count(distinct ${m.conversationId})::int from ${messagesFrom} where ${messagesWhere}) as active,
        (select count(*)::int from ${messagesFrom} where ${messagesWhere}) as messages,
        (select count(distinct ${c.userId})::int from ${messagesFrom} where ${messagesWhere}) as users,
        (select count(*)::int from ${pageViews} where ${views}) as views`,
    ),
    db
      .select({ name: pageViews.name, views: count() })
      .from(pageViews)
      .where(views)
      .groupBy(pageViews.name)
      .orderBy(desc(count()), pageViews.name)
      .limit(TOP_PAGES),
  ]);
  const t = totals[0];
  const active = num(t?.active);
  return {
    range: rangeOf(scope),
    totals: {
      conversations: num(t?.started),
      active_conversations: active,
      messages: num(t?.messages),
      messages_per_conversation: active > 0 ? num(t?.messages) / active : 0,
      active_users: num(t?.users),
      page_views: num(t?.views),
    },
    activity: newPerBucket.map((b, i) => ({
      bucket: b.bucket,
      conversations: num(b.n),
      messages: num(messagesPerBucket[i]?.n),
      active_users: num(messagesPerBucket[i]?.users),
      page_views: num(viewsPerBucket[i]?.n),
    })),
    top_pages: topPages.map((p) => ({ name: p.name, views: num(p.views) })),
  };
}
