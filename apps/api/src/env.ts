import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { privateDir, PRIVATE_FILE_MODE, tightenTree } from '@atelier/db';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllowList, type UrlPolicy } from '@atelier/net';
import { z } from 'zod';

/** The repository root: relative paths in the configuration are resolved against it. */
export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));
const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** A comma-separated list of hosts, IPs and CIDRs; metadata and link-local addresses stay refused. */
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

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(5001),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: optionalString,
  REDIS_URL: optionalString,
  DB_POOL_SIZE: int(20),
  /** How long a call waits for a database connection before answering 503 (PostgreSQL out of reach). */
  DB_CONNECT_TIMEOUT_MS: int(4_000),
  DATA_DIR: z.string().default('.data'),
  JWT_SECRET: optionalString,
  /** 32 bytes, base64: encrypts provider credentials at rest (AES-256-GCM). */
  ENCRYPTION_KEY: optionalString,
  /** `any` (default: builders may point providers at local servers such as Ollama) or `public-only`. */
  PROVIDER_URL_POLICY: z.enum(['any', 'public-only']).default('any'),
  /** Hosts, IPs or CIDRs provider calls may reach under public-only (comma-separated), e.g. your Ollama. */
  PROVIDER_URL_ALLOW: allowList,
  PROVIDER_TIMEOUT_MS: int(60_000),
  /** What flow nodes (API request, Jira, loaders) may fetch: `public-only` (default) or `any`. */
  NODE_URL_POLICY: z.enum(['any', 'public-only']).default('public-only'),
  /** Hosts, IPs or CIDRs flow nodes may fetch under public-only (comma-separated). */
  NODE_URL_ALLOW: allowList,
  /** Base URL of the Notion API for the Notion loader (for tests and proxies); default https://api.notion.com. */
  NOTION_API_URL: optionalString,
  /** Base URL of the Figma API for the Figma loader (for tests and proxies); default https://api.figma.com. */
  FIGMA_API_URL: optionalString,
  /**
   * Flow runs executed at once by one process. Most of a chat run's life is waiting for its model's
   * tokens: 50 capped a process at about 175 chatflow answers/s at 200 concurrent chats (the rest
   * queued), 200 gave about 250/s (bench:chat).
   */
  RUN_CONCURRENCY: int(200),
  /** With REDIS_URL: whether the API also executes runs (set false when separate workers run). */
  RUN_WORKER_IN_API: z.enum(['true', 'false']).default('true'),
  /** Whether this API ingests the documents uploaded to it (parse, split, embed, store). */
  INGEST_DOCUMENTS: z.enum(['true', 'false']).default('true'),
  /** Threads that parse uploaded documents (PDF, Office…) off the event loop; unset: the cores but one. */
  PARSE_THREADS: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().int().min(1).max(64).optional(),
  ),
  /** Namespaces the run queue and event keys on a shared Redis. */
  QUEUE_PREFIX: z.string().default('atelier'),
  /**
   * The run lock, the same on every API and worker: a run whose runner died is ended with the reason
   * by any live process within RUN_LOCK_MS + 5 s.
   */
  RUN_LOCK_MS: int(30_000),
  /** On SIGTERM: how long running runs and answers may finish before the process leaves. */
  SHUTDOWN_GRACE_MS: int(30_000),
  /** Streams send a heartbeat this often while they are open. */
  HEARTBEAT_MS: int(15_000),
  WEB_ORIGIN: z.string().default('http://localhost:3000,http://127.0.0.1:3000'),
  WEB_URL: optionalString,
  ACCESS_TOKEN_TTL_SECONDS: int(900),
  REFRESH_TOKEN_TTL_DAYS: int(30),
  /** The largest request body of a route that does not set its own (see plugins/body-limits.ts). */
  BODY_LIMIT_BYTES: int(65_536),
  /** Largest image (decoded bytes) a chat message, a model call or a run input may carry. */
  CHAT_IMAGE_MAX_BYTES: int(5 * 1024 * 1024),
  /** Most images (or files) a chat message, a model call or a run input may carry. */
  CHAT_IMAGE_MAX_COUNT: int(4),
  /** Per-user limits of the costly routes, per minute (see plugins/route-limits.ts). */
  CHAT_MESSAGES_PER_USER_PER_MINUTE: int(30),
  RUNS_PER_USER_PER_MINUTE: int(30),
  MODEL_CALLS_PER_USER_PER_MINUTE: int(30),
  PROVIDER_TESTS_PER_USER_PER_MINUTE: int(10),
  PAGE_VIEWS_PER_USER_PER_MINUTE: int(120),
  /** Requests per minute of each API key on the public API (/v1), all its routes together. */
  API_KEY_REQUESTS_PER_MINUTE: int(60),
  /** Embed routes of one chatbot (its token), all browsers together, per minute. */
  EMBED_REQUESTS_PER_TOKEN_PER_MINUTE: int(600),
  /** Embed routes of one browser (its random id) on one chatbot, per minute. */
  EMBED_REQUESTS_PER_BROWSER_PER_MINUTE: int(30),
  /** The embeddable chat's built files (`pnpm --filter @atelier/web build:embed`), served at /embed-assets. */
  EMBED_DIST_DIR: z.string().default('apps/web/dist-embed'),
  /** The API's address as integrators reach it (the OpenAPI document's server); default http://localhost:PORT. */
  PUBLIC_API_URL: optionalString,
  LOG_EXPORTS_PER_USER_PER_MINUTE: int(10),
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Atelier <no-reply@atelier.local>'),
  ADMIN_EMAIL: optionalString,
  ADMIN_PASSWORD: optionalString,
  ADMIN_NAME: optionalString,
  ORGANIZATION_NAME: z.string().default('My organization'),
  MONTHLY_CREDITS: int(100_000),
  LOGIN_RATE_PER_IP_PER_MINUTE: int(30),
  LOGIN_RATE_PER_ACCOUNT_PER_15_MINUTES: int(10),
  RESET_RATE_PER_IP_PER_HOUR: int(20),
  RESET_RATE_PER_ACCOUNT_PER_HOUR: int(3),
  /** Trust X-Forwarded-For (only behind a reverse proxy you run; otherwise clients could spoof their address). */
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Serve GET /metrics (Prometheus text format). */
  METRICS_ENABLED: z.enum(['true', 'false']).default('true'),
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: optionalString,
  /** OTLP/HTTP collector base URL (traces to <url>/v1/traces); unset: no tracing at all. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalString,
  /** Headers for the collector, `key=value,key2=value2` (e.g. an API key). */
  OTEL_EXPORTER_OTLP_HEADERS: optionalString,
  OTEL_SERVICE_NAME: z.string().default('atelier-api'),
  /** A Sentry-compatible DSN: unexpected errors are reported there; unset: no client at all. */
  SENTRY_DSN: optionalString,
  SENTRY_ENVIRONMENT: optionalString,
  SENTRY_RELEASE: optionalString,
});

/** Tracing and error reporting (see plugins/error-reporting.ts). */
export interface TelemetryConfig {
  serviceName: string;
  otlpEndpoint: string | undefined;
  otlpTracesEndpoint: string | undefined;
  otlpHeaders: string | undefined;
  sentryDsn: string | undefined;
  sentryEnvironment: string | undefined;
  sentryRelease: string | undefined;
}

export interface RateLimitConfig {
  loginPerIpPerMinute: number;
  loginPerAccountPer15Minutes: number;
  resetPerIpPerHour: number;
  resetPerAccountPerHour: number;
}

/** Per-user requests per minute of each costly route preset. */
export interface RouteRateLimits {
  chat: number;
  run: number;
  invoke: number;
  providerTest: number;
  pageView: number;
  publicApi: number;
  /** Log exports (each reads every matching log). */
  logExport: number;
  /** Per embed token (chatbot). */
  embed: number;
  /** Per browser of an embed. */
  embedBrowser: number;
}

export interface ImageLimits {
  maxBytes: number;
  maxCount: number;
}

export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  dbPoolSize: number;
  dbConnectTimeoutMs: number;
  dataDir: string;
  jwtSecret: string;
  encryptionKey: Buffer;
  providerUrlPolicy: UrlPolicy;
  providerTimeoutMs: number;
  nodeUrlPolicy: UrlPolicy;
  /** Loader API base URLs (NOTION_API_URL, FIGMA_API_URL); unset means the real APIs. */
  loaderEndpoints: { notion: string | undefined; figma: string | undefined };
  runConcurrency: number;
  runWorkerInApi: boolean;
  ingestDocuments: boolean;
  /** Document parser threads at most; undefined: the machine's cores but one (at least one). */
  parseThreads: number | undefined;
  queuePrefix: string;
  runLockMs: number;
  shutdownGraceMs: number;
  heartbeatMs: number;
  webOrigins: string[];
  webUrl: string;
  /** The API's address as integrators reach it. */
  publicApiUrl: string;
  /** Where the embeddable chat's built files are. */
  embedDistDir: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  bodyLimitBytes: number;
  images: ImageLimits;
  routeRateLimits: RouteRateLimits;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** The first admin's name ("First Last"); else taken from the email's local part. */
  adminName: string | undefined;
  organizationName: string;
  monthlyCredits: number;
  rateLimits: RateLimitConfig;
  logLevel: string;
  trustProxy: boolean;
  metrics: { enabled: boolean; token: string | undefined };
  telemetry: TelemetryConfig;
}

export class ConfigError extends Error {}

/** Reads and validates the environment; the only place that looks at process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(repoRoot, e.DATA_DIR);
  const origins = e.WEB_ORIGIN.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    dbPoolSize: e.DB_POOL_SIZE,
    dbConnectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
    dataDir,
    jwtSecret: jwtSecret(e.JWT_SECRET, e.NODE_ENV, dataDir),
    encryptionKey: encryptionKey(e.ENCRYPTION_KEY, e.NODE_ENV, dataDir),
    providerUrlPolicy: { mode: e.PROVIDER_URL_POLICY, allow: e.PROVIDER_URL_ALLOW },
    providerTimeoutMs: e.PROVIDER_TIMEOUT_MS,
    nodeUrlPolicy: { mode: e.NODE_URL_POLICY, allow: e.NODE_URL_ALLOW },
    loaderEndpoints: { notion: e.NOTION_API_URL, figma: e.FIGMA_API_URL },
    runConcurrency: e.RUN_CONCURRENCY,
    runWorkerInApi: e.RUN_WORKER_IN_API === 'true',
    ingestDocuments: e.INGEST_DOCUMENTS === 'true',
    parseThreads: e.PARSE_THREADS,
    queuePrefix: e.QUEUE_PREFIX,
    runLockMs: e.RUN_LOCK_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    heartbeatMs: e.HEARTBEAT_MS,
    webOrigins: origins,
    webUrl: (e.WEB_URL ?? origins[0] ?? 'http://localhost:3000').replace(/\/$/, ''),
    publicApiUrl: (e.PUBLIC_API_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    embedDistDir: resolve(repoRoot, e.EMBED_DIST_DIR),
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    images: { maxBytes: e.CHAT_IMAGE_MAX_BYTES, maxCount: e.CHAT_IMAGE_MAX_COUNT },
    routeRateLimits: {
      chat: e.CHAT_MESSAGES_PER_USER_PER_MINUTE,
      run: e.RUNS_PER_USER_PER_MINUTE,
      invoke: e.MODEL_CALLS_PER_USER_PER_MINUTE,
      providerTest: e.PROVIDER_TESTS_PER_USER_PER_MINUTE,
      pageView: e.PAGE_VIEWS_PER_USER_PER_MINUTE,
      publicApi: e.API_KEY_REQUESTS_PER_MINUTE,
      logExport: e.LOG_EXPORTS_PER_USER_PER_MINUTE,
      embed: e.EMBED_REQUESTS_PER_TOKEN_PER_MINUTE,
      embedBrowser: e.EMBED_REQUESTS_PER_BROWSER_PER_MINUTE,
    },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    adminName: e.ADMIN_NAME,
    organizationName: e.ORGANIZATION_NAME,
    monthlyCredits: e.MONTHLY_CREDITS,
    rateLimits: {
      loginPerIpPerMinute: e.LOGIN_RATE_PER_IP_PER_MINUTE,
      loginPerAccountPer15Minutes: e.LOGIN_RATE_PER_ACCOUNT_PER_15_MINUTES,
      resetPerIpPerHour: e.RESET_RATE_PER_IP_PER_HOUR,
      resetPerAccountPerHour: e.RESET_RATE_PER_ACCOUNT_PER_HOUR,
    },
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY === 'true',
    metrics: { enabled: e.METRICS_ENABLED === 'true', token: e.METRICS_TOKEN },
    telemetry: {
      serviceName: e.OTEL_SERVICE_NAME,
      otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
      otlpTracesEndpoint: e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
      otlpHeaders: e.OTEL_EXPORTER_OTLP_HEADERS,
      sentryDsn: e.SENTRY_DSN,
      sentryEnvironment: e.SENTRY_ENVIRONMENT,
      sentryRelease: e.SENTRY_RELEASE,
    },
  };
}

const MIN_SECRET_LENGTH = 32;

/**
 * Tightens an existing DATA_DIR on start: everything under it owner-only (0700 directories, 0600 files),
 * for installs whose database files were created readable and writable by everyone.
 */
export function secureDataDir(dataDir: string): void {
  if (existsSync(dataDir)) tightenTree(dataDir);
}

/**
 * Reads a secret kept under DATA_DIR, creating it on first use (development and tests only). The
 * directory is 0700 and the file 0600, existing ones with looser modes tightened.
 */
function keptSecret(dataDir: string, name: string, make: () => string): string {
  const file = join(dataDir, name);
  privateDir(dataDir);
  if (existsSync(file)) return readSecret(file);
  // Written whole under a temporary name, then linked in place: readers never see a partial secret, and
  // of two processes starting at once the second keeps the first one's secret.
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, make(), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  return readSecret(file);
}

function readSecret(file: string): string {
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, PRIVATE_FILE_MODE);
  return readFileSync(file, 'utf8').trim();
}

function encryptionKey(given: string | undefined, nodeEnv: string, dataDir: string): Buffer {
  if (!given && nodeEnv === 'production') {
    throw new ConfigError(
      'ENCRYPTION_KEY is required when NODE_ENV=production (32 random bytes, base64: openssl rand -base64 32).',
    );
  }
  const value = given ?? keptSecret(dataDir, 'encryption-key', () => randomBytes(32).toString('base64'));
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32)
    throw new ConfigError('ENCRYPTION_KEY must be 32 bytes encoded in base64 (openssl rand -base64 32).');
  return key;
}

/**
 * Production requires JWT_SECRET. Elsewhere a secret is generated once and kept under DATA_DIR,
 * so sessions survive restarts without anyone having to configure one.
 */
function jwtSecret(given: string | undefined, nodeEnv: string, dataDir: string): string {
  if (given) {
    if (given.length < MIN_SECRET_LENGTH) {
      throw new ConfigError(`JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters long.`);
    }
    return given;
  }
  if (nodeEnv === 'production') {
    throw new ConfigError('JWT_SECRET is required when NODE_ENV=production (at least 32 random characters).');
  }
  return keptSecret(dataDir, 'jwt-secret', () => randomBytes(48).toString('base64url'));
}
