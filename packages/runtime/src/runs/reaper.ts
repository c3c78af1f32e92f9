import { runs, type Db } from '@atelier/db';
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { EventLog } from '../events/event-log';
import { RUN_HEARTBEAT_MS, RUNNER_STOPPED } from './execute-run';

/** A running run whose runner has not touched it for this long is dead. */
export const STALE_RUN_MS = 6 * RUN_HEARTBEAT_MS;
/** In process, a run waits in memory behind at most RUN_CONCURRENCY others: this long means it was lost. */
export const QUEUED_LIMIT_MS = 15 * 60_000;

/**
 * No run stays "running" forever: runs whose runner stopped beating are ended as failed, with the
 * reason, and their clients hear it. With `orphansToo` (the embedded mode, at start) every queued or
 * running run is an orphan, since the process that held it is gone.
 */
export async function reapDeadRuns(
  db: Db,
  events: EventLog,
  options: { orphansToo?: boolean; queuedLimitMs?: number } = {},
): Promise<number> {
  const stale = sql`now() - make_interval(secs => ${STALE_RUN_MS / 1000})`;
  // In-process queues live in memory: a run still queued long after it was created lost its process.
  const lostInQueue = options.queuedLimitMs
    ? and(
        eq(runs.status, 'queued'),
        lt(runs.createdAt, sql`now() - make_interval(secs => ${options.queuedLimitMs / 1000})`),
      )
    : undefined;
  const dead = await db
    .update(runs)
    .set({ status: 'failed', error: RUNNER_STOPPED, finishedAt: new Date() })
    .where(
      options.orphansToo
        ? inArray(runs.status, ['queued', 'running'])
        : or(and(eq(runs.status, 'running'), lt(runs.heartbeatAt, stale)), lostInQueue),
    )
    .returning({ id: runs.id });
  for (const { id } of dead) {
    await events
      .append(id, { type: 'execution_error', run_id: id, error: RUNNER_STOPPED, status: 'failed' })
      .catch(() => undefined);
  }
  return dead.length;
}
