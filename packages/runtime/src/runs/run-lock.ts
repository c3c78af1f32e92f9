import { queryRows, stmt, type Db } from '@atelier/db';
import { sql } from 'drizzle-orm';

/**
 * The run lock: a runner holds each of its runs by touching `runs.heartbeat_at` (database time) at
 * least every third of RUN_LOCK_MS. A running run untouched for RUN_LOCK_MS has lost its runner, and
 * any live process (API or worker) ends it within RUN_LOCK_MS + RECOVERY_BOUND_MS (see reaper.ts).
 * Every process of an installation must use the same RUN_LOCK_MS.
 */
export const DEFAULT_RUN_LOCK_MS = 30_000;
/** A lapsed lock's run is ended at most this long after the lapse (one sweep interval plus its statement). */
export const RECOVERY_BOUND_MS = 5_000;

/** How often a runner renews its runs' lock: a third of the lock, at most every 10 s. */
export const beatEvery = (lockMs: number) => Math.max(100, Math.min(10_000, Math.floor(lockMs / 3)));
/** How often each live process sweeps for lost runs (leaving a second of the bound to the statement). */
export const sweepEvery = (lockMs: number) =>
  Math.max(100, Math.min(RECOVERY_BOUND_MS - 1_000, Math.floor(lockMs / 2)));

/** The SQL moment before which a heartbeat means the lock has lapsed. */
export const lapsedBefore = (lockMs: number) => sql`now() - make_interval(secs => ${lockMs / 1000})`;
/** The same, for a `Statement` (the run writes: see run-writes.ts). */
export const lapsedBeforeStatement = (lockMs: number) =>
  stmt`now() - make_interval(secs => ${lockMs / 1000}::float8)`;

interface Held {
  /** Stops the run in this process: its run was cancelled, or ended by someone else (lock lost). */
  stop(reason: 'cancel' | 'lost'): void;
}

/**
 * This process's hold on the runs it executes: one statement renews all of them, and answers which
 * were asked to cancel and which are no longer running here (ended by a sweeper after a stall).
 */
export function createRunLocks(db: Db, lockMs: number, onError: (error: unknown) => void) {
  const held = new Map<string, Held>();
  let beating = false;
  const timer = setInterval(() => void beat(), beatEvery(lockMs));
  timer.unref();

  async function beat() {
    if (beating || held.size === 0) return;
    beating = true;
    const ids = [...held.keys()];
    try {
      const rows = await queryRows<{ id: string; cancel: boolean }>(
        db,
        sql`update runs set heartbeat_at = now()
            where id = any(${`{${ids.join(',')}}`}::uuid[]) and status = 'running'
            returning id, cancel_requested_at is not null as cancel`,
      );
      const still = new Map(rows.map((r) => [r.id, r.cancel]));
      for (const id of ids) {
        const hold = held.get(id);
        if (!hold) continue; // ended meanwhile
        if (!still.has(id)) hold.stop('lost');
        else if (still.get(id)) hold.stop('cancel');
      }
    } catch (error) {
      onError(error);
    } finally {
      beating = false;
    }
  }

  return {
    lockMs,
    /** Holds a run until the answered release is called. */
    hold(runId: string, stop: Held['stop']): () => void {
      held.set(runId, { stop });
      return () => held.delete(runId);
    },
    /** The runs this process holds now. */
    held: () => [...held.keys()],
    /** Stops every run held here (shutdown, after their ends were written). */
    stopAll() {
      for (const hold of held.values()) hold.stop('lost');
    },
    /** Number of runs held. */
    get size() {
      return held.size;
    },
    close() {
      clearInterval(timer);
    },
  };
}

export type RunLocks = ReturnType<typeof createRunLocks>;
