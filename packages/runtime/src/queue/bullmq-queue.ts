import { runJob } from '@atelier/schemas';
import { Queue, Worker } from 'bullmq';
import { RUN_QUEUE_NAME, type ExecuteRun, type RunQueue } from './run-queue';

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
  };
};

/** The API side: a run becomes a BullMQ job whose id is the run id (enqueued twice, it runs once). */
export function createBullmqQueue(redisUrl: string, prefix = 'atelier'): RunQueue {
  const queue = new Queue(RUN_QUEUE_NAME, { connection: connection(redisUrl), prefix });
  queue.on('error', () => undefined);
  return {
    kind: 'bullmq',
    async enqueue(runId) {
      await queue.add(
        'run',
        { runId },
        { jobId: runId, removeOnComplete: 1000, removeOnFail: 5000, attempts: 1 },
      );
    },
    close: () => queue.close(),
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
}): { close(): Promise<void> } {
  const lockDuration = options.lockDurationMs ?? 30_000;
  const worker = new Worker(
    RUN_QUEUE_NAME,
    async (job) => {
      const { runId } = runJob.parse(job.data);
      await options.execute(runId);
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
  };
}
