import { inferenceLogs, type Db } from '@atelier/db';
import type { OverviewAnswer } from '@atelier/schemas';
import { and, count, countDistinct, desc, isNotNull, sql } from 'drizzle-orm';
import { msOrNull, num, perBucket, rate, rowsOf } from './buckets';
import { logsInScope, type Scope } from './scope';
import { rangeOf } from './range';

const l = inferenceLogs;
const TOP_CHATBOTS = 5;

/** Inference volume, hourly volume, response time, top chatbots and daily active users. */
export async function overview(db: Db, scope: Scope): Promise<OverviewAnswer> {
  const where = logsInScope(scope);
  const [totals, buckets, hourly, top, daily] = await Promise.all([
    db
      .select({
        requests: count(),
        errors: sql<number>`count(*) filter (where ${l.error})::int`,
        users: countDistinct(l.userId),
        avg: sql<number | null>`avg(${l.totalMs})::float8`,
      })
      .from(l)
      .where(where),
    perBucket<{ requests: number; errors: number; avg_total: number; p95: number; avg_ft: number }>(
      db,
      scope,
      {
        at: l.createdAt,
        from: sql`${l}`,
        where,
        columns: sql`count(*)::int as requests, count(*) filter (where ${l.error})::int as errors,
          avg(${l.totalMs})::float8 as avg_total,
          percentile_cont(0.95) within group (order by ${l.totalMs})::float8 as p95,
          avg(${l.firstTokenMs})::float8 as avg_ft`,
      },
    ),
    rowsOf<{ hour: number; requests: number }>(
      db,
      sql`select extract(hour from ${l.createdAt} at time zone ${scope.tz})::int as hour,
        count(*)::int as requests from ${l} where ${where} group by 1`,
    ),
    db
      .select({ id: l.chatbotId, name: sql<string>`max(${l.chatbotName})`, requests: count() })
      .from(l)
      .where(and(where, isNotNull(l.chatbotId)))
      .groupBy(l.chatbotId)
      .orderBy(desc(count()), l.chatbotId)
      .limit(TOP_CHATBOTS),
    perBucket<{ users: number }>(db, scope, {
      at: l.createdAt,
      from: sql`${l}`,
      where,
      columns: sql`count(distinct ${l.userId})::int as users`,
      period: 'day',
    }),
  ]);
  const total = totals[0] ?? { requests: 0, errors: 0, users: 0, avg: null };
  const byHour = new Map(hourly.map((h) => [Number(h.hour), num(h.requests)]));
  return {
    range: rangeOf(scope),
    totals: {
      requests: num(total.requests),
      errors: num(total.errors),
      error_rate: rate(num(total.errors), num(total.requests)),
      users: num(total.users),
      avg_total_ms: msOrNull(total.avg),
    },
    volume: buckets.map((b) => ({ bucket: b.bucket, requests: num(b.requests), errors: num(b.errors) })),
    hourly: Array.from({ length: 24 }, (_, hour) => ({ hour, requests: byHour.get(hour) ?? 0 })),
    response_time: buckets.map((b) => ({
      bucket: b.bucket,
      avg_total_ms: msOrNull(b.avg_total),
      p95_total_ms: msOrNull(b.p95),
      avg_first_token_ms: msOrNull(b.avg_ft),
    })),
    top_chatbots: top.map((t) => ({ chatbot_id: t.id ?? '', name: t.name, requests: num(t.requests) })),
    daily_active_users: daily.map((d) => ({ day: d.bucket, users: num(d.users) })),
  };
}
