import type { Db } from '@atelier/db';
import type { AnalyticsPeriod } from '@atelier/schemas';
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Scope } from './scope';

/** The rows of a raw query, on PostgreSQL and PGlite alike (both answer `{rows}`). */
export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

// Literals from a closed set, never user text: date_trunc and intervals read them as SQL.
const UNIT: Record<AnalyticsPeriod, SQL> = {
  day: sql.raw(`'day'`),
  week: sql.raw(`'week'`),
  month: sql.raw(`'month'`),
};
const STEP: Record<AnalyticsPeriod, SQL> = {
  day: sql.raw(`interval '1 day'`),
  week: sql.raw(`interval '1 week'`),
  month: sql.raw(`interval '1 month'`),
};

/** The instant's local wall time in the scope's zone, truncated to the period (weeks start on Monday). */
export const localBucket = (at: PgColumn, scope: Scope, period: AnalyticsPeriod = scope.period) =>
  sql`date_trunc(${UNIT[period]}, ${at} at time zone ${scope.tz})`;

/** Every bucket of the range in the scope's zone, empty ones included, from the first to the last. */
function series(scope: Scope, period: AnalyticsPeriod) {
  const from = scope.from.toISOString();
  const last = new Date(scope.to.getTime() - 1).toISOString();
  return sql`select generate_series(
    date_trunc(${UNIT[period]}, ${from}::timestamptz at time zone ${scope.tz}),
    date_trunc(${UNIT[period]}, ${last}::timestamptz at time zone ${scope.tz}),
    ${STEP[period]}) as b`;
}

/**
 * Figures per bucket: `columns` aggregated over `from … where`, grouped by the local bucket of `at`,
 * joined to every bucket of the range. Each row has `bucket` (`YYYY-MM-DD`, the bucket's first day);
 * the figures of an empty bucket are null.
 */
export function perBucket<T>(
  db: Db,
  scope: Scope,
  parts: { at: PgColumn; from: SQL; where: SQL; columns: SQL; period?: AnalyticsPeriod },
): Promise<(T & { bucket: string })[]> {
  const period = parts.period ?? scope.period;
  return rowsOf(
    db,
    sql`with series as (${series(scope, period)}),
      agg as (select ${localBucket(parts.at, scope, period)} as b, ${parts.columns}
              from ${parts.from} where ${parts.where} group by 1)
      select to_char(series.b, 'YYYY-MM-DD') as bucket, agg.*
      from series left join agg on agg.b = series.b order by series.b`,
  );
}

/** A count or measure from the database, as a number (0 when absent). */
export const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
/** Milliseconds rounded, or null when nothing was measured. */
export const msOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Math.round(Number(value));
export const rate = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
