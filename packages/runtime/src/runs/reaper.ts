import { runs, type Db } from '@atelier/db';
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { RUN_HEARTBEAT_MS, RUNNER_STOPPED } from './execute-run';
import type { RunLifecycle } from './lifecycle';

/** A running run whose runner has not touched it for this long is dead. */
export const STALE_RUN_MS = 6 * RUN_HEARTBEAT_MS;
/** In process, a run waits in memory behind at most RUN_CONCURRENCY others: this long means it was lost. */
export const QUEUED_LIMIT_MS = 15 * 60_000;

/**
 * No run stays "running" forever: runs whose runner stopped beating are ended as failed, with the
 * reason, through the lifecycle (row, the conversation's error message, the terminal event). With
 * `orphansToo` (the embedded mode, at start) every queued or running run is an orphan, since the
 * process that held it is gone. Answers how many runs it ended.
 */
export async function reapDeadRuns(
  db: Db,
  lifecycle: RunLifecycle,
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
    .select({ id: runs.id, status: runs.status })
    .from(runs)
    .where(
      options.orphansToo
        ? inArray(runs.status, ['queued', 'running'])
        : or(and(eq(runs.status, 'running'), lt(runs.heartbeatAt, stale)), lostInQueue),
    );
  // Ended only from the status seen (a run that moved on meanwhile is left to its new owner); the
  // calls of this turn share one statement (group commit).
  const ended = await Promise.all(
    dead.map(({ id, status }) =>
      lifecycle.finish(id, { status: 'failed', error: RUNNER_STOPPED }, [status]).catch(() => false),
    ),
  );
  return ended.filter(Boolean).length;
}
