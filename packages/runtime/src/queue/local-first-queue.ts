import type { JobContext } from '@atelier/telemetry';
import { enqueueTraced, type ExecuteRun, type RunQueue } from './run-queue';

/**
 * The runs one process executes, whoever handed them over (the shared queue's worker or a local
 * start): `track` wraps the executor so every run is counted while it executes.
 */
export function createRunSlots(concurrency: number) {
  let running = 0;
  return {
    concurrency,
    get running() {
      return running;
    },
    get free() {
      return running < concurrency;
    },
    track(execute: ExecuteRun): ExecuteRun {
      return async (runId, job) => {
        running += 1;
        try {
          await execute(runId, job);
        } finally {
          running -= 1;
        }
      };
    },
  };
}

export type RunSlots = ReturnType<typeof createRunSlots>;

/** See createLocalFirstQueue's `holdMs`. */
export const HAND_OFF_HOLD_MS = 1_000;

/**
 * A process that executes runs and shares a queue (BullMQ on Redis) starts the runs it stores itself
 * while it has a free slot: no trip through the shared queue (a job added, fetched, locked and
 * finished: three scripts on Redis and their replies per run). A run it has no slot for goes to the
 * shared queue, where any worker takes it, and for a second after that new runs go there too, behind
 * it: under a load this process cannot take, runs are served in order (its worker takes the slots
 * local runs free).
 *
 * Nothing changes for a crash: the run row is stored as `queued` before either path, a run is claimed
 * once (lifecycle.ts), and the sweeper hands a queued run nobody claimed back to the shared queue and
 * ends a running run whose runner stopped renewing its lock, as for a worker that dies.
 *
 * While the events' store (Redis) is out of reach, runs go to the shared queue, which refuses them at
 * once (503) as before: a run started here would wait for Redis with its client.
 *
 * `onLocal` hears how many local runs execute, so the shared queue's worker in this process can take
 * fewer jobs meanwhile (the process stays near its concurrency, whichever path a run came by).
 */
export function createLocalFirstQueue(options: {
  shared: RunQueue;
  slots: RunSlots;
  execute: ExecuteRun;
  /** Whether a run started here could go on now (its events' store is reachable): else the shared queue answers. */
  canStart(): boolean;
  onError(error: unknown, runId: string): void;
  onLocal?(running: number): void;
  /** How long after a hand-off new runs follow it to the shared queue. Default 1 s. */
  holdMs?: number;
}): RunQueue {
  const { shared, slots } = options;
  const holdMs = options.holdMs ?? HAND_OFF_HOLD_MS;
  const active = new Set<Promise<void>>();
  let closed = false;
  // When this process last handed a run to the shared queue: new runs go behind it for a while (a run
  // started here would overtake the ones waiting there, which workers take in order).
  let handedOffAt = -Infinity;

  function start(runId: string, job: JobContext) {
    const run: Promise<void> = options
      .execute(runId, job)
      .catch((error: unknown) => options.onError(error, runId))
      .finally(() => {
        active.delete(run);
        options.onLocal?.(active.size);
      });
    active.add(run);
    options.onLocal?.(active.size);
  }

  return {
    kind: shared.kind,
    async enqueue(runId) {
      const holding = performance.now() - handedOffAt < holdMs;
      if (closed || holding || !slots.free || !options.canStart()) {
        if (!closed) handedOffAt = performance.now();
        return shared.enqueue(runId);
      }
      await enqueueTraced('in-process', runId, async (job) => start(runId, job));
    },
    requeue: (runId) => shared.requeue(runId),
    /** Stops starting runs here and waits for the local ones (a drain's grace period bounds it). */
    async close() {
      closed = true;
      await Promise.allSettled([...active]);
      await shared.close();
    },
  };
}
