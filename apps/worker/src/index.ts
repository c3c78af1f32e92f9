// The flow worker: takes runs off the BullMQ queue and executes them with the engine. Any number of
// workers may run beside any number of API processes (set RUN_WORKER_IN_API=false on the API then).
import { openDatabase } from '@atelier/db';
import { createRuntime } from '@atelier/runtime';
import { loadWorkerConfig } from './env';

const log = (level: 'info' | 'error', message: string, extra: Record<string, unknown> = {}) =>
  process.stdout.write(`${JSON.stringify({ level, time: new Date().toISOString(), message, ...extra })}\n`);

async function main() {
  const config = loadWorkerConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, poolSize: config.DB_POOL_SIZE });
  const runtime = createRuntime({
    db: database.db,
    redisUrl: config.REDIS_URL,
    redisPrefix: config.QUEUE_PREFIX,
    encryptionKey: config.encryptionKey,
    providerTimeoutMs: config.PROVIDER_TIMEOUT_MS,
    httpPolicy: { mode: config.NODE_URL_POLICY, allow: config.NODE_URL_ALLOW },
    providerPolicy: { mode: config.PROVIDER_URL_POLICY, allow: config.PROVIDER_URL_ALLOW },
    concurrency: config.RUN_CONCURRENCY,
    executesRuns: true,
    singleProcess: false,
    lockDurationMs: config.RUN_LOCK_MS,
    onError: (error, context) =>
      log('error', `flow runtime: ${context}`, {
        error: error instanceof Error ? error.message : String(error),
      }),
  });
  log('info', 'worker ready', { concurrency: config.RUN_CONCURRENCY, prefix: config.QUEUE_PREFIX });

  // Graceful: stop taking runs, let the running ones end (up to the grace period), then leave.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('info', 'worker stopping', { signal });
    const grace = setTimeout(() => {
      log('error', 'runs still running after the grace period; the reaper will end them');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS);
    grace.unref();
    await runtime.close();
    await database.close();
    log('info', 'worker stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  log('error', 'worker failed to start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
