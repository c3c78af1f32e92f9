import { runs, type Db } from '@atelier/db';
import type { FlowStreamEvent } from '@atelier/schemas';
import { and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { RunQueue } from '../queue/run-queue';
import { RUNNER_STOPPED } from './execute-run';
import { terminalEventOf, type RunLifecycle } from './lifecycle';
import { DEFAULT_RUN_LOCK_MS, lapsedBefore } from './run-lock';

/** In process, a run waits in memory behind at most RUN_CONCURRENCY others: this long means it was lost. */
export const QUEUED_LIMIT_MS = 15 * 60_000;
/** Queued runs looked at per sweep for a lost queue entry. */
const REQUEUE_BATCH = 100;

/**
 * No run stays "running" forever: runs whose run lock lapsed (their runner stopped renewing it, see
 * run-lock.ts) are ended as failed, with the reason, through the lifecycle (row, the conversation's
 * error message, the terminal event). With `orphansToo` (the embedded mode, at start) every running
 * run is an orphan, since the process that held it is gone. Answers how many runs it ended.
 */
export async function reapDeadRuns(
  db: Db,
  lifecycle: RunLifecycle,
  options: { lockMs?: number; orphansToo?: boolean; queuedLimitMs?: number } = {},
): Promise<number> {
  const lapsed = lapsedBefore(options.lockMs ?? DEFAULT_RUN_LOCK_MS);
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
        ? or(eq(runs.status, 'running'), lostInQueue)
        : or(and(eq(runs.status, 'running'), lt(runs.heartbeatAt, lapsed)), lostInQueue),
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

/**
 * Queued runs the queue lost (the API died between storing a run and queuing it, Redis lost the job,
 * a runner failed to claim it while the database was away, or the embedded process restarted) are
 * handed back to the queue: they never started, so running them now is safe, and a claim takes a run
 * once. Looks only at runs queued longer than the lock (a younger run may be on its way to the queue),
 * unless `all` (the embedded mode at start: every queued run was lost with the process).
 */
export async function requeueLostRuns(
  db: Db,
  queue: RunQueue,
  options: { lockMs?: number; all?: boolean } = {},
) {
  const old = lt(runs.createdAt, lapsedBefore(options.lockMs ?? DEFAULT_RUN_LOCK_MS));
  const waiting = await db
    .select({ id: runs.id })
    .from(runs)
    .where(options.all ? eq(runs.status, 'queued') : and(eq(runs.status, 'queued'), old))
    .orderBy(asc(runs.createdAt))
    .limit(REQUEUE_BATCH);
  const handed = await Promise.all(waiting.map(({ id }) => queue.requeue(id).catch(() => false)));
  return handed.filter(Boolean).length;
}

/** The queue as the health check reports it: runs waiting, the oldest one's wait, runs running. */
export async function queueStats(db: Db) {
  const [row] = await db
    .select({
      queued: sql<number>`count(*) filter (where ${runs.status} = 'queued')`.mapWith(Number),
      running: sql<number>`count(*) filter (where ${runs.status} = 'running')`.mapWith(Number),
      oldest: sql<
        number | null
      >`extract(epoch from now() - min(${runs.createdAt}) filter (where ${runs.status} = 'queued'))`,
    })
    .from(runs)
    .where(inArray(runs.status, ['queued', 'running']));
  return {
    queued: row?.queued ?? 0,
    running: row?.running ?? 0,
    oldestQueuedSeconds:
      row?.oldest === null || row?.oldest === undefined ? null : Math.round(Number(row.oldest)),
  };
}

/** A queued run's place in the queue (1 = next), by age; null once it left the queue. */
export async function queuePosition(db: Db, runId: string): Promise<number | null> {
  const [row] = await db
    .select({
      status: runs.status,
      ahead: sql<number>`(select count(*) from runs q where q.status = 'queued'
        and (q.created_at, q.id) < (${runs.createdAt}, ${runs.id}))`.mapWith(Number),
    })
    .from(runs)
    .where(eq(runs.id, runId));
  return row?.status === 'queued' ? row.ahead + 1 : null;
}

/**
 * A run's terminal event as its row has it once it has ended, null while it is queued or running (or
 * unknown): what a reader that hears nothing more is given when the run's runner died between
 * storing the end and logging it.
 */
export async function runEnd(db: Db, runId: string): Promise<FlowStreamEvent | null> {
  const [row] = await db.select().from(runs).where(eq(runs.id, runId)).limit(1);
  return row ? terminalEventOf(row) : null;
}
