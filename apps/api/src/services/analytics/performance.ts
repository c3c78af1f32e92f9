import { inferenceLogs, type Db } from '@atelier/db';
import type { PerformanceAnswer } from '@atelier/schemas';
import { and, count, desc, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { msOrNull, num, rate } from './buckets';
import { rangeOf } from './range';
import { logsInScope, type Scope } from './scope';

const l = inferenceLogs;
const GROUPS = 20;

const pct = (p: number, column: PgColumn) =>
  sql<number | null>`percentile_cont(${sql.raw(String(p))}) within group (order by ${column})::float8`;

/** Errors, fallbacks and latency of a group of calls. */
const groupFigures = {
  requests: count(),
  errors: sql<number>`count(*) filter (where ${l.error})::int`,
  fallbacks: sql<number>`count(*) filter (where ${l.fallback})::int`,
  p50: pct(0.5, l.totalMs),
  p95: pct(0.95, l.totalMs),
};

type GroupRow = { requests: number; errors: number; fallbacks: number; p50: unknown; p95: unknown };
const rates = (g: GroupRow) => ({
  requests: num(g.requests),
  errors: num(g.errors),
  fallbacks: num(g.fallbacks),
  error_rate: rate(num(g.errors), num(g.requests)),
  fallback_rate: rate(num(g.fallbacks), num(g.requests)),
  p50_total_ms: msOrNull(g.p50),
  p95_total_ms: msOrNull(g.p95),
});

/** First-token and total time percentiles; error and fallback rates per model and per chatbot. */
export async function performance(db: Db, scope: Scope): Promise<PerformanceAnswer> {
  const where: SQL = logsInScope(scope);
  const [overall, byModel, byChatbot] = await Promise.all([
    db
      .select({
        ft50: pct(0.5, l.firstTokenMs),
        ft95: pct(0.95, l.firstTokenMs),
        ft99: pct(0.99, l.firstTokenMs),
        t50: pct(0.5, l.totalMs),
        t95: pct(0.95, l.totalMs),
        t99: pct(0.99, l.totalMs),
      })
      .from(l)
      .where(where),
    db
      .select({ model: l.modelName, ...groupFigures })
      .from(l)
      .where(where)
      .groupBy(l.modelName)
      .orderBy(desc(count()), l.modelName)
      .limit(GROUPS),
    db
      .select({ id: l.chatbotId, name: sql<string>`max(${l.chatbotName})`, ...groupFigures })
      .from(l)
      .where(and(where, isNotNull(l.chatbotId)))
      .groupBy(l.chatbotId)
      .orderBy(desc(count()), l.chatbotId)
      .limit(GROUPS),
  ]);
  const o = overall[0];
  return {
    range: rangeOf(scope),
    first_token_ms: { p50: msOrNull(o?.ft50), p95: msOrNull(o?.ft95), p99: msOrNull(o?.ft99) },
    total_ms: { p50: msOrNull(o?.t50), p95: msOrNull(o?.t95), p99: msOrNull(o?.t99) },
    by_model: byModel.map((g) => ({ model_name: g.model, ...rates(g) })),
    by_chatbot: byChatbot.map((g) => ({ chatbot_id: g.id ?? '', name: g.name, ...rates(g) })),
  };
}
