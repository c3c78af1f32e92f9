import { watchQueueDepth, type JobContext } from '@atelier/telemetry';
import { enqueueTraced, type ExecuteRun, type RunQueue } from './run-queue';

/**
 * The embedded mode's queue: runs start at once in this process, at most `concurrency` at a time
 * (the rest wait in order). A run outlives the request that started it.
 */
export function createInProcessQueue(options: {
  execute: ExecuteRun;
  concurrency: number;
  onError(error: unknown, runId: string): void;
}): RunQueue {
  const waiting: { runId: string; job: JobContext }[] = [];
  const active = new Set<Promise<void>>();
  const running = new Set<string>();
  let closed = false;
  const unwatch = watchQueueDepth('in-process', () => waiting.length);

  function pump() {
    while (!closed && active.size < options.concurrency && waiting.length > 0) {
      const { runId, job: context } = waiting.shift()!;
      running.add(runId);
      const job: Promise<void> = options
        .execute(runId, context)
        .catch((error: unknown) => options.onError(error, runId))
        .finally(() => {
          active.delete(job);
          running.delete(runId);
          pump();
        });
      active.add(job);
    }
  }

  return {
    kind: 'in-process',
    async enqueue(runId) {
      if (closed) throw new Error('the run queue is closed');
      await enqueueTraced('in-process', runId, async (job) => {
        waiting.push({ runId, job });
        pump();
      });
    },
    async requeue(runId) {
      if (closed || running.has(runId) || waiting.some((w) => w.runId === runId)) return false;
      // Handed back by a sweep: no request's context to carry.
      waiting.push({ runId, job: {} });
      pump();
      return true;
    },
    // Runs still waiting stay queued in the database: a process sweeping for lost runs takes them.
    async close() {
      closed = true;
      unwatch();
      waiting.length = 0;
      await Promise.allSettled([...active]);
    },
  };
}
