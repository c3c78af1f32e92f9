// The flow worker: takes runs off the BullMQ queue and executes them with the engine. Any number of
// workers may run beside any number of API processes (set RUN_WORKER_IN_API=false on the API then).
import { openDatabase } from '@atelier/db';
import { createRuntime } from '@atelier/runtime';
import { startTelemetry } from '@atelier/telemetry/start';
import { loadWorkerConfig } from './env';
import { startHealthServer } from './health';
import { createWorkerLogger } from './log';
import { startMetricsServer } from './metrics-server';

let logger = createWorkerLogger(process.env.LOG_LEVEL ?? 'info');
const log = (level: 'info' | 'error', message: string, extra: Record<string, unknown> = {}) =>
  logger[level](extra, message);

async function main() {
  const config = loadWorkerConfig();
  logger = createWorkerLogger(config.LOG_LEVEL);
  const telemetry = await startTelemetry({
    serviceName: config.OTEL_SERVICE_NAME,
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    otlpTracesEndpoint: config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || undefined,
    otlpHeaders: config.OTEL_EXPORTER_OTLP_HEADERS,
    sentryDsn: config.SENTRY_DSN || undefined,
    environment: config.SENTRY_ENVIRONMENT,
    release: config.SENTRY_RELEASE,
  });
  const metricsServer = config.WORKER_METRICS_PORT
    ? await startMetricsServer({
        port: config.WORKER_METRICS_PORT,
        host: config.WORKER_METRICS_HOST,
        token: config.METRICS_TOKEN || undefined,
      })
    : null;
  const database = await openDatabase({
    url: config.DATABASE_URL,
    poolSize: config.DB_POOL_SIZE,
    connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
  });
  const runtime = createRuntime({
    db: database.db,
    redisUrl: config.REDIS_URL,
    redisPrefix: config.QUEUE_PREFIX,
    encryptionKey: config.encryptionKey,
    providerTimeoutMs: config.PROVIDER_TIMEOUT_MS,
    httpPolicy: { mode: config.NODE_URL_POLICY, allow: config.NODE_URL_ALLOW },
    loaderEndpoints: { notion: config.NOTION_API_URL || undefined, figma: config.FIGMA_API_URL || undefined },
    providerPolicy: { mode: config.PROVIDER_URL_POLICY, allow: config.PROVIDER_URL_ALLOW },
    concurrency: config.RUN_CONCURRENCY,
    executesRuns: true,
    runnerKind: 'worker',
    singleProcess: false,
    lockDurationMs: config.RUN_LOCK_MS,
    dataDir: config.DATA_DIR ?? '.data',
    ingestsDocuments: config.DATA_DIR !== undefined,
    onError: (error, context) => {
      logger.error({ err: error }, `flow runtime: ${context}`);
      telemetry.reportError(error, { where: 'flow runtime' });
    },
    log: logger,
  });
  log('info', 'worker ready', {
    concurrency: config.RUN_CONCURRENCY,
    prefix: config.QUEUE_PREFIX,
    metricsPort: config.WORKER_METRICS_PORT ?? null,
    tracing: telemetry.tracing,
    errorReporting: telemetry.errorReporting,
  });
  const health =
    config.HEALTH_PORT === undefined
      ? null
      : startHealthServer({
          port: config.HEALTH_PORT,
          pingDb: () => database.ping(),
          pingRedis: () => runtime.runners.ping(),
          active: () => runtime.activeRuns(),
        });

  // Graceful: stop taking runs, let the running ones end (up to the grace period; those still running
  // then are ended with the reason, so no client waits on them), then leave with 0.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('info', 'worker stopping', { signal, active: runtime.activeRuns() });
    // A last resort should closing itself hang (a connection that never answers).
    setTimeout(() => {
      log('error', 'the worker did not close in time after the grace period');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS + 10_000).unref();
    health?.close();
    await runtime.shutdown(config.SHUTDOWN_GRACE_MS);
    await database.close();
    metricsServer?.close();
    await telemetry.shutdown();
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
