import type { ExecuteRun, RunQueue } from './run-queue';

/**
 * The embedded mode's queue: runs start at once in this process, at most `concurrency` at a time
 * (the rest wait in order). A run outlives the request that started it.
 */
export function createInProcessQueue(options: {
  execute: ExecuteRun;
  concurrency: number;
  onError(error: unknown, runId: string): void;
}): RunQueue {
  const waiting: string[] = [];
  const active = new Set<Promise<void>>();
  let closed = false;

  function pump() {
    while (!closed && active.size < options.concurrency && waiting.length > 0) {
      const runId = waiting.shift()!;
      const job: Promise<void> = options
        .execute(runId)
        .catch((error: unknown) => options.onError(error, runId))
        .finally(() => {
          active.delete(job);
          pump();
        });
      active.add(job);
    }
  }

  return {
    kind: 'in-process',
    async enqueue(runId) {
      if (closed) throw new Error('the run queue is closed');
      waiting.push(runId);
      pump();
    },
    async close() {
      closed = true;
      waiting.length = 0;
      await Promise.allSettled([...active]);
    },
  };
}
