import { parseAllowList } from '@atelier/net';
import { z } from 'zod';

const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const allowList = z
  .string()
  .optional()
  .transform((text, ctx) => {
    try {
      return parseAllowList(text);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });

/** The worker needs the API's database, Redis and encryption key: it reads the same variables. */
const envSchema = z.object({
  DATABASE_URL: z.string().min(1, 'the worker needs DATABASE_URL (the API database)'),
  REDIS_URL: z.string().min(1, 'the worker needs REDIS_URL (it takes runs off the queue there)'),
  ENCRYPTION_KEY: z.string().min(1, 'the worker needs the API ENCRYPTION_KEY (to use provider keys)'),
  DB_POOL_SIZE: int(10),
  /** How long getting a database connection may take before the call fails. */
  DB_CONNECT_TIMEOUT_MS: int(10_000),
  RUN_CONCURRENCY: int(200),
  PROVIDER_TIMEOUT_MS: int(60_000),
  NODE_URL_POLICY: z.enum(['any', 'public-only']).default('public-only'),
  /** Hosts, IPs or CIDRs flow nodes may fetch under public-only (comma-separated). */
  NODE_URL_ALLOW: allowList,
  /** Base URLs of the Notion and Figma APIs for the loaders (for tests and proxies); default the real APIs. */
  NOTION_API_URL: z.string().optional(),
  FIGMA_API_URL: z.string().optional(),
  /** Provider calls of flow nodes: the API's PROVIDER_URL_POLICY and PROVIDER_URL_ALLOW, same values. */
  PROVIDER_URL_POLICY: z.enum(['any', 'public-only']).default('any'),
  PROVIDER_URL_ALLOW: allowList,
  QUEUE_PREFIX: z.string().default('atelier'),
  /** The API's DATA_DIR when shared (a volume): then this worker ingests uploaded documents too. */
  DATA_DIR: z.string().optional(),
  /**
   * The run lock, the same on every API and worker: a killed runner's runs are ended with the reason
   * by any live process within RUN_LOCK_MS + 5 s.
   */
  RUN_LOCK_MS: int(30_000),
  /** How long a shutdown lets running runs finish; those still running then are ended with the reason. */
  SHUTDOWN_GRACE_MS: int(30_000),
  /** When set, GET /health on this port answers whether the worker reaches PostgreSQL and Redis. */
  HEALTH_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Serve this worker's Prometheus metrics on this port (GET /metrics); unset: no metrics server. */
  WORKER_METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  WORKER_METRICS_HOST: z.string().default('0.0.0.0'),
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>` (the API's variable). */
  METRICS_TOKEN: z.string().optional(),
  /** OTLP/HTTP collector base URL (traces to <url>/v1/traces); unset: no tracing at all. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional(),
  OTEL_SERVICE_NAME: z.string().default('atelier-worker'),
  /** A Sentry-compatible DSN for unexpected errors; unset: no client at all. */
  SENTRY_DSN: z.string().optional(),
  SENTRY_ENVIRONMENT: z.string().optional(),
  SENTRY_RELEASE: z.string().optional(),
});

export type WorkerConfig = z.infer<typeof envSchema> & { encryptionKey: Buffer };

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(
      `Invalid worker configuration:\n  ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n  ')}`,
    );
  }
  const encryptionKey = Buffer.from(parsed.data.ENCRYPTION_KEY, 'base64');
  if (encryptionKey.length !== 32) throw new Error('ENCRYPTION_KEY must be 32 bytes, base64-encoded.');
  return { ...parsed.data, encryptionKey };
}
