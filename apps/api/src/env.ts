import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { privateDir, PRIVATE_FILE_MODE, tightenTree } from '@atelier/db';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository root: relative paths in the configuration are resolved against it. */
export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));
const int = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(5001),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: optionalString,
  REDIS_URL: optionalString,
  DB_POOL_SIZE: int(20),
  DATA_DIR: z.string().default('.data'),
  JWT_SECRET: optionalString,
  /** 32 bytes, base64: encrypts provider credentials at rest (AES-256-GCM). */
  ENCRYPTION_KEY: optionalString,
  /** `any` (default: builders may point providers at local servers such as Ollama) or `public-only`. */
  PROVIDER_URL_POLICY: z.enum(['any', 'public-only']).default('any'),
  PROVIDER_TIMEOUT_MS: int(60_000),
  /** What flow nodes (API request, Jira, loaders) may fetch: `public-only` (default) or `any`. */
  NODE_URL_POLICY: z.enum(['any', 'public-only']).default('public-only'),
  /** Flow runs executed at once by one process. */
  RUN_CONCURRENCY: int(50),
  /** With REDIS_URL: whether the API also executes runs (set false when separate workers run). */
  RUN_WORKER_IN_API: z.enum(['true', 'false']).default('true'),
  /** Namespaces the run queue and event keys on a shared Redis. */
  QUEUE_PREFIX: z.string().default('atelier'),
  /** Streams send a heartbeat this often while they are open. */
  HEARTBEAT_MS: int(15_000),
  WEB_ORIGIN: z.string().default('http://localhost:3000,http://127.0.0.1:3000'),
  WEB_URL: optionalString,
  ACCESS_TOKEN_TTL_SECONDS: int(900),
  REFRESH_TOKEN_TTL_DAYS: int(30),
  BODY_LIMIT_BYTES: int(1_048_576),
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Atelier <no-reply@atelier.local>'),
  ADMIN_EMAIL: optionalString,
  ADMIN_PASSWORD: optionalString,
  ORGANIZATION_NAME: z.string().default('My organization'),
  MONTHLY_CREDITS: int(100_000),
  LOGIN_RATE_PER_IP_PER_MINUTE: int(30),
  LOGIN_RATE_PER_ACCOUNT_PER_15_MINUTES: int(10),
  RESET_RATE_PER_IP_PER_HOUR: int(20),
  RESET_RATE_PER_ACCOUNT_PER_HOUR: int(3),
  /** Trust X-Forwarded-For (only behind a reverse proxy you run; otherwise clients could spoof their address). */
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface RateLimitConfig {
  loginPerIpPerMinute: number;
  loginPerAccountPer15Minutes: number;
  resetPerIpPerHour: number;
  resetPerAccountPerHour: number;
}

export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  dbPoolSize: number;
  dataDir: string;
  jwtSecret: string;
  encryptionKey: Buffer;
  providerUrlPolicy: 'any' | 'public-only';
  providerTimeoutMs: number;
  nodeUrlPolicy: 'any' | 'public-only';
  runConcurrency: number;
  runWorkerInApi: boolean;
  queuePrefix: string;
  heartbeatMs: number;
  webOrigins: string[];
  webUrl: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  bodyLimitBytes: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  organizationName: string;
  monthlyCredits: number;
  rateLimits: RateLimitConfig;
  logLevel: string;
  trustProxy: boolean;
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
    dataDir,
    jwtSecret: jwtSecret(e.JWT_SECRET, e.NODE_ENV, dataDir),
    encryptionKey: encryptionKey(e.ENCRYPTION_KEY, e.NODE_ENV, dataDir),
    providerUrlPolicy: e.PROVIDER_URL_POLICY,
    providerTimeoutMs: e.PROVIDER_TIMEOUT_MS,
    nodeUrlPolicy: e.NODE_URL_POLICY,
    runConcurrency: e.RUN_CONCURRENCY,
    runWorkerInApi: e.RUN_WORKER_IN_API === 'true',
    queuePrefix: e.QUEUE_PREFIX,
    heartbeatMs: e.HEARTBEAT_MS,
    webOrigins: origins,
    webUrl: (e.WEB_URL ?? origins[0] ?? 'http://localhost:3000').replace(/\/$/, ''),
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
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
