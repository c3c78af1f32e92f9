import { runJob } from '@atelier/schemas';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { quitSoon } from '../events/redis-event-log';
import { watchQueueDepth } from '@atelier/telemetry';
import { RuntimeError } from '../errors';
import {
  ENQUEUE_TIMEOUT_MS,
  enqueueTraced,
  RUN_QUEUE_NAME,
  type ExecuteRun,
  type RunQueue,
} from './run-queue';

const connection = (url: string) => {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    // Back within a second or two of Redis's return (BullMQ's own default waits up to 20 s).
    retryStrategy: (times: number) => Math.min(250 * times, 2_000),
  };
};

export const QUEUE_UNAVAILABLE =
  'The run queue (Redis) is unavailable right now, so the run was not started. Please try again in a moment.';

const JOB_HELD = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/** The API side: a run becomes a BullMQ job whose id is the run id (enqueued twice, it runs once). */
export function createBullmqQueue(redisUrl: string, prefix = 'atelier'): RunQueue {
  // Fails fast while Redis is away (no offline queue): the caller answers 503 instead of hanging.
  // The connection is ours, so closing it never depends on the state BullMQ last saw it in.
  const client = new Redis({ ...connection(redisUrl), enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  client.on('error', () => undefined);
  const queue = new Queue(RUN_QUEUE_NAME, { connection: client, prefix });
  queue.on('error', () => undefined);
  // The job carries the request id and trace context to the worker (validated there).
  const add = (runId: string) =>
    enqueueTraced('bullmq', runId, async (job) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          queue.add(
            'run',
            { runId, ...job },
            { jobId: runId, removeOnComplete: 1000, removeOnFail: 5000, attempts: 1 },
          ),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('no answer from Redis')), ENQUEUE_TIMEOUT_MS);
          }),
        ]);
      } catch {
        throw new RuntimeError(503, 'queue_unavailable', QUEUE_UNAVAILABLE);
      } finally {
        clearTimeout(timer);
      }
    });
  // The shared queue's waiting jobs, read when metrics are scraped.
  const unwatch = watchQueueDepth('bullmq', async () => {
    const counts = await queue.getJobCounts('waiting', 'prioritized');
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  });
  return {
    kind: 'bullmq',
    enqueue: add,
    async requeue(runId) {
      const state = await queue.getJobState(runId);
      if (JOB_HELD.has(state)) return false;
      // A finished job whose run is still queued never ran it (its claim failed): replaced.
      if (state !== 'unknown') await queue.remove(runId);
      await add(runId);
      return true;
    },
    async close() {
      unwatch();
      await queue.close().catch(() => undefined);
      await quitSoon(client);
    },
  };
}

/**
 * The worker side. A job whose worker dies is "stalled": its lock lapses after `lockDurationMs` and
 * BullMQ hands it to another worker, where the run executor sees a second attempt and ends the run as
 * failed with the reason (see execute-run.ts). Payloads are validated as they come off the queue.
 */
export function startRunWorker(options: {
  redisUrl: string;
  execute: ExecuteRun;
  concurrency: number;
  prefix?: string;
  lockDurationMs?: number;
  onError?(error: unknown): void;
}): { close(): Promise<void>; setConcurrency(n: number): void } {
  const lockDuration = options.lockDurationMs ?? 30_000;
  const worker = new Worker(
    RUN_QUEUE_NAME,
    async (job) => {
      const { runId, requestId, trace } = runJob.parse(job.data);
      await options.execute(runId, { requestId, trace });
    },
    {
      connection: connection(options.redisUrl),
      prefix: options.prefix ?? 'atelier',
      concurrency: options.concurrency,
      lockDuration,
      stalledInterval: Math.max(1000, Math.floor(lockDuration / 2)),
      maxStalledCount: 1,
    },
  );
  worker.on('error', (error) => options.onError?.(error));
  return {
    // Graceful: stops taking jobs and waits for the running ones to end.
    close: () => worker.close(),
    /** How many jobs it holds at once from now on (at least 1; jobs it holds already go on). */
    setConcurrency: (n: number) => {
      worker.concurrency = Math.max(1, Math.floor(n));
    },
  };
}
