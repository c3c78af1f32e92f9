import type { Db } from '@atelier/db';
import type { UrlPolicy } from '@atelier/net';
import type { RunLimits } from '@atelier/engine';
import type { EventLog } from './events/event-log';
import { createMemoryEventLog } from './events/memory-event-log';
import { createRedisEventLog } from './events/redis-event-log';
import { createModelAccess, createSecretBox } from '@atelier/metering';
import { createBullmqQueue, startRunWorker } from './queue/bullmq-queue';
import { createInProcessQueue } from './queue/in-process-queue';
import type { RunQueue } from './queue/run-queue';
import { createMemoryCancelBus, createRedisCancelBus, type CancelBus } from './runs/cancel-bus';
import { createRunExecutor } from './runs/execute-run';
import { createRunLifecycle, type RunLifecycle } from './runs/lifecycle';
import { QUEUED_LIMIT_MS, reapDeadRuns, STALE_RUN_MS } from './runs/reaper';

export interface RuntimeOptions {
  db: Db;
  /** With Redis: BullMQ queue, Redis Stream event logs, cancel over pub/sub. Without: all in process. */
  redisUrl?: string | undefined;
  /** Namespaces the queue and keys on a shared Redis (tests, several installations). */
  redisPrefix?: string | undefined;
  encryptionKey: Buffer;
  providerTimeoutMs: number;
  /** What URLs flow nodes may fetch (NODE_URL_POLICY, NODE_URL_ALLOW). */
  httpPolicy: UrlPolicy;
  /** What provider calls may reach, redirects included (PROVIDER_URL_POLICY, PROVIDER_URL_ALLOW). */
  providerPolicy: UrlPolicy;
  /** Runs executed at once by this process. */
  concurrency: number;
  /** Whether this process executes runs (a worker does; an API does unless workers are separate). */
  executesRuns: boolean;
  /** PGlite: one process owns the database, so runs left queued or running at start are orphans. */
  singleProcess: boolean;
  limits?: Partial<RunLimits>;
  /** How long a worker's hold on a run lasts without renewal: a killed worker's runs are taken back after it. */
  lockDurationMs?: number | undefined;
  onError(error: unknown, context: string): void;
}

export interface Runtime {
  events: EventLog;
  cancels: CancelBus;
  /** Every status change of a run after it was queued (see runs/lifecycle.ts). */
  lifecycle: RunLifecycle;
  queue: RunQueue;
  models: ReturnType<typeof createModelAccess>;
  execute(runId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Everything that runs flows, wired for the embedded mode or for Redis. The API and the worker build
 * the same runtime; they differ only in whether they execute runs.
 */
export function createRuntime(options: RuntimeOptions): Runtime {
  const { db, redisUrl } = options;
  const prefix = options.redisPrefix ?? 'atelier';
  const events = redisUrl
    ? createRedisEventLog(redisUrl, prefix, (error) => options.onError(error, 'run events'))
    : createMemoryEventLog();
  const cancels = redisUrl ? createRedisCancelBus(redisUrl, prefix) : createMemoryCancelBus();
  const models = createModelAccess({
    db,
    box: createSecretBox(options.encryptionKey),
    timeoutMs: options.providerTimeoutMs,
    urlPolicy: options.providerPolicy,
  });
  const lifecycle = createRunLifecycle({
    db,
    events,
    onError: (error, runId) => options.onError(error, `run ${runId}`),
  });
  const execute = createRunExecutor({
    db,
    lifecycle,
    events,
    cancels,
    models,
    httpPolicy: options.httpPolicy,
    ...(options.limits ? { limits: options.limits } : {}),
    onError: (error, runId) => options.onError(error, `run ${runId}`),
  });
  const queue = redisUrl
    ? createBullmqQueue(redisUrl, prefix)
    : createInProcessQueue({
        execute,
        concurrency: options.concurrency,
        onError: (error, runId) => options.onError(error, `run ${runId}`),
      });
  const worker =
    redisUrl && options.executesRuns
      ? startRunWorker({
          redisUrl,
          prefix,
          execute,
          concurrency: options.concurrency,
          ...(options.lockDurationMs ? { lockDurationMs: options.lockDurationMs } : {}),
          onError: (error) => options.onError(error, 'run worker'),
        })
      : null;

  // No run stays "running" forever: the embedded mode's orphans at start, then dead runners' runs.
  const reap = (orphansToo = false) =>
    reapDeadRuns(db, lifecycle, {
      orphansToo,
      ...(redisUrl ? {} : { queuedLimitMs: QUEUED_LIMIT_MS }),
    }).catch((error: unknown) => options.onError(error, 'reaper'));
  if (!redisUrl && options.singleProcess && options.executesRuns) void reap(true);
  const reaper = options.executesRuns ? setInterval(() => void reap(), STALE_RUN_MS / 3) : null;
  reaper?.unref();

  return {
    events,
    cancels,
    lifecycle,
    queue,
    models,
    execute,
    async close() {
      if (reaper) clearInterval(reaper);
      await worker?.close();
      await queue.close();
      await cancels.close();
      await events.close();
    },
  };
}
