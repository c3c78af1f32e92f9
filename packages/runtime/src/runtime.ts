import type { Db } from '@atelier/db';
import type { FlowStreamEvent } from '@atelier/schemas';
import type { Logger } from '@atelier/telemetry';
import type { UrlPolicy } from '@atelier/net';
import type { RunLimits } from '@atelier/engine';
import { createKnowledge, type Knowledge } from '@atelier/knowledge';
import type { EventLog } from './events/event-log';
import { createMemoryEventLog } from './events/memory-event-log';
import { createRedisEventLog } from './events/redis-event-log';
import { createModelAccess, createSecretBox } from '@atelier/metering';
import { createBullmqQueue, startRunWorker } from './queue/bullmq-queue';
import { createInProcessQueue } from './queue/in-process-queue';
import { createLocalFirstQueue, createRunSlots } from './queue/local-first-queue';
import type { RunQueue } from './queue/run-queue';
import { createCancelBus, type CancelBus } from './runs/cancel-bus';
import { createMemoryBroadcast, createRedisBroadcast } from './bus/broadcast';
import { createSharedCaches, type SharedCaches } from './cache/shared-cache';
import { createRunExecutor } from './runs/execute-run';
import { createFlowConfigs, type FlowConfigs } from './runs/flow-configs';
import { createRunLifecycle, type RunLifecycle } from './runs/lifecycle';
import { createLocalPresence, createRedisPresence, type Presence } from './queue/presence';
import { createRunLocks, DEFAULT_RUN_LOCK_MS, sweepEvery, beatEvery } from './runs/run-lock';
import {
  QUEUED_LIMIT_MS,
  queuePosition,
  queueStats,
  reapDeadRuns,
  requeueLostRuns,
  runEnd,
} from './runs/reaper';

/** How long a closing process waits for its queue worker to let go (see close). */
const WORKER_CLOSE_MS = 3_000;

/** Waits for `work` at most `ms` (its failure is not this caller's to report). */
async function within(work: Promise<unknown> | undefined, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.resolve(work).catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}

/**
 * Documents ingested at once: parsing and embedding share the process with the API's requests. A lane
 * waits on the provider, a parser thread and the database in turn, so two left a third of 2 cores idle.
 * 100,000 chunks (`pnpm bench:knowledge`, PostgreSQL, 2 cores): 2 lanes ready after 33.1 s (`/health`
 * p99 meanwhile 20.1 ms; the sketch's transform then twice as slow, 0.4 s of it), 3 after 29.7 s
 * (24.4 ms), 4 after 28.0 s (33.4 ms); on a slower day, 3 lanes 37.2-37.7 s, 4 35.3 s. Four: the
 * 200 MB of PDFs meanwhile kept `/health` p99 at 63-66 ms (44-48 with 3) and the API under 320 MB.
 */
const INGESTION_CONCURRENCY = 4;

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
  /** Base URLs of the Notion and Figma APIs for the loaders (tests, proxies); unset: the real APIs. */
  loaderEndpoints?: { notion?: string | undefined; figma?: string | undefined } | undefined;
  /** What provider calls may reach, redirects included (PROVIDER_URL_POLICY, PROVIDER_URL_ALLOW). */
  providerPolicy: UrlPolicy;
  /** Runs executed at once by this process. */
  concurrency: number;
  /** Whether this process executes runs (a worker does; an API does unless workers are separate). */
  executesRuns: boolean;
  /** PGlite: one process owns the database, so runs left queued or running at start are orphans. */
  singleProcess: boolean;
  limits?: Partial<RunLimits>;
  /** Where uploaded documents wait until ingested (`<dataDir>/uploads`). */
  dataDir: string;
  /** Whether this process ingests uploaded documents (the API does: the uploads are on its disk). */
  ingestsDocuments?: boolean | undefined;
  /**
   * RUN_LOCK_MS, the same on every process: how long a runner's hold on a run lasts without renewal. A
   * killed runner's runs are ended, by any live process, within this plus RECOVERY_BOUND_MS.
   */
  lockDurationMs?: number | undefined;
  /** What this process is, in the live runners the health check lists (when it executes runs). */
  runnerKind?: 'api' | 'worker';
  onError(error: unknown, context: string): void;
  /** Where each run's start and end are logged (outcome, duration; with its request id and run id). */
  log?: Logger | undefined;
}

export interface Runtime {
  events: EventLog;
  cancels: CancelBus;
  /** In-memory copies of rows every request re-reads, dropped on change in every process. */
  caches: SharedCaches;
  /** Every status change of a run after it was queued (see runs/lifecycle.ts). */
  lifecycle: RunLifecycle;
  /** The configurations runs run, stored once per organization (see runs/flow-configs.ts). */
  flowConfigs: FlowConfigs;
  queue: RunQueue;
  models: ReturnType<typeof createModelAccess>;
  /** Collections, ingestion, retrieval and the knowledge nodes' services. */
  knowledge: Knowledge;
  execute(runId: string): Promise<void>;
  /** Runs this process executes now. */
  activeRuns(): number;
  /** Processes executing runs now (from their heartbeats). */
  runners: Presence;
  /** The queue as the database has it: runs waiting, running, the oldest wait. */
  queueStats(): ReturnType<typeof queueStats>;
  /** A queued run's place in the queue (1 = next); null once it left the queue. */
  queuePosition(runId: string): Promise<number | null>;
  /** A run's terminal event as its row has it, once it has ended (null while queued or running). */
  runEnd(runId: string): Promise<FlowStreamEvent | null>;
  /**
   * Stops taking runs, lets the running ones end for up to `graceMs`, then ends those still running
   * here as failed with the reason (runs still queued stay queued for another process), and closes.
   */
  shutdown(graceMs: number): Promise<void>;
  /** The first half of shutdown: stops taking runs and ends the running ones (grace), closes nothing. */
  drain(graceMs: number): Promise<void>;
  close(): Promise<void>;
}

export const RUNNER_SHUT_DOWN =
  'The server running this flow shut down before it ended (it was restarted or scaled down). Run it again.';

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
  const broadcast = (name: string) =>
    redisUrl ? createRedisBroadcast(redisUrl, prefix, name) : createMemoryBroadcast();
  const cancels = createCancelBus(broadcast('run-cancel'));
  const caches = createSharedCaches(broadcast('cache-invalidate'));
  const box = createSecretBox(options.encryptionKey);
  const models = createModelAccess({
    db,
    box,
    targets: caches.cache('model-targets'),
    timeoutMs: options.providerTimeoutMs,
    urlPolicy: options.providerPolicy,
  });
  const knowledge = createKnowledge({
    db,
    models,
    box,
    urlPolicy: options.providerPolicy,
    loaderPolicy: options.httpPolicy,
    loaderEndpoints: options.loaderEndpoints,
    dataDir: options.dataDir,
    embeddedDatabase: options.singleProcess,
    onError: (error, context) => options.onError(error, `knowledge: ${context}`),
  });
  if (options.ingestsDocuments) knowledge.startIngestionWorker({ concurrency: INGESTION_CONCURRENCY });
  const lockMs = options.lockDurationMs ?? DEFAULT_RUN_LOCK_MS;
  const lifecycle = createRunLifecycle({
    db,
    events,
    lockMs,
    onError: (error, runId) => options.onError(error, `run ${runId}`),
    log: options.log,
  });
  const locks = createRunLocks(db, lockMs, (error) => options.onError(error, 'run lock'));
  const flowConfigs = createFlowConfigs(db);
  const execute = createRunExecutor({
    flowConfigs,
    log: options.log,
    db,
    lifecycle,
    locks,
    events,
    cancels,
    models,
    httpPolicy: options.httpPolicy,
    knowledge,
    ...(options.limits ? { limits: options.limits } : {}),
    onError: (error, runId) => options.onError(error, `run ${runId}`),
  });
  // Every run this process executes, from the shared queue or started here, holds one of its slots.
  const slots = createRunSlots(options.concurrency);
  const tracked = slots.track(execute);
  const worker =
    redisUrl && options.executesRuns
      ? startRunWorker({
          redisUrl,
          prefix,
          execute: tracked,
          concurrency: options.concurrency,
          lockDurationMs: lockMs,
          onError: (error) => options.onError(error, 'run worker'),
        })
      : null;
  const onRunError = (error: unknown, runId: string) => options.onError(error, `run ${runId}`);
  const shared = redisUrl ? createBullmqQueue(redisUrl, prefix) : null;
  const queue: RunQueue = !shared
    ? createInProcessQueue({ execute: tracked, concurrency: options.concurrency, onError: onRunError })
    : worker
      ? createLocalFirstQueue({
          shared,
          slots,
          execute: tracked,
          canStart: () => events.reachable(),
          onError: onRunError,
          // The worker takes fewer jobs while runs started here hold slots (at least one).
          onLocal: (running) => worker.setConcurrency(Math.max(1, options.concurrency - running)),
        })
      : shared;

  const self = options.executesRuns
    ? {
        kind: options.runnerKind ?? (redisUrl ? 'worker' : 'api'),
        concurrency: options.concurrency,
        active: () => locks.size,
      }
    : null;
  const runners = redisUrl ? createRedisPresence(redisUrl, prefix, self, lockMs) : createLocalPresence(self);

  // No run stays stuck, whoever dies: every live process (API or worker) sweeps for runs whose lock
  // lapsed and ends them, and hands queued runs the queue lost back to it. After its own database
  // outage a process waits until runners had time to renew their locks before ending anything.
  const onlyHere = !redisUrl && options.singleProcess;
  let healthySince: number | null = Date.now();
  let sweeping = false;
  let lastRequeue = 0;
  const sweep = async (orphansToo = false) => {
    if (sweeping) return;
    sweeping = true;
    try {
      // Lost queue entries are rarer than dead runners: looked for once per lock period.
      if (orphansToo || Date.now() - lastRequeue >= Math.max(lockMs, 5_000)) {
        lastRequeue = Date.now();
        await requeueLostRuns(db, queue, { lockMs, all: orphansToo });
      }
      const now = Date.now();
      if (healthySince === null) healthySince = now;
      if (orphansToo || now - healthySince >= 1.5 * beatEvery(lockMs)) {
        await reapDeadRuns(db, lifecycle, {
          lockMs,
          orphansToo,
          ...(redisUrl ? {} : { queuedLimitMs: QUEUED_LIMIT_MS }),
        });
      }
    } catch (error) {
      healthySince = null;
      options.onError(error, 'run sweeper');
    } finally {
      sweeping = false;
    }
  };
  // The embedded mode owns its database: what was running when it stopped is an orphan; what was
  // queued is handed back to the queue.
  if (onlyHere && options.executesRuns) void sweep(true);
  const sweeper = setInterval(() => void sweep(), sweepEvery(lockMs));
  sweeper.unref();

  let closed = false;
  async function close() {
    if (closed) return;
    closed = true;
    clearInterval(sweeper);
    await runners.close();
    // BullMQ's worker never finishes closing when its blocking connection is between two attempts
    // (Redis just back and no job taken since): it is let go after a while.
    await within(worker?.close(), WORKER_CLOSE_MS);
    await knowledge.close();
    await queue.close();
    locks.close();
    await cancels.close();
    await caches.close();
    await events.close();
  }

  async function drain(graceMs: number) {
    clearInterval(sweeper);
    await runners.close();
    // Stop taking runs and wait for the running ones, up to the grace period.
    const drained = Promise.all([worker?.close(), queue.close()]);
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      drained.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (late) {
      // Ended here with the reason (a run with side effects is not replayed); their runners, aborted
      // by the lost lock or at close, find the run ended and stop.
      await Promise.all(
        locks
          .held()
          .map((id) =>
            lifecycle
              .finish(id, { status: 'failed', error: RUNNER_SHUT_DOWN }, ['running'])
              .catch(() => false),
          ),
      );
      locks.stopAll();
    }
  }

  return {
    events,
    cancels,
    caches,
    lifecycle,
    flowConfigs,
    queue,
    models,
    knowledge,
    execute: tracked,
    runners,
    activeRuns: () => locks.size,
    queueStats: () => queueStats(db),
    queuePosition: (runId) => queuePosition(db, runId),
    runEnd: (runId) => runEnd(db, runId),
    drain,
    async shutdown(graceMs) {
      await drain(graceMs);
      await close();
    },
    close,
  };
}
