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
  RUN_CONCURRENCY: int(50),
  PROVIDER_TIMEOUT_MS: int(60_000),
  NODE_URL_POLICY: z.enum(['any', 'public-only']).default('public-only'),
  /** Hosts, IPs or CIDRs flow nodes may fetch under public-only (comma-separated). */
  NODE_URL_ALLOW: allowList,
  /** Provider calls of flow nodes: the API's PROVIDER_URL_POLICY and PROVIDER_URL_ALLOW, same values. */
  PROVIDER_URL_POLICY: z.enum(['any', 'public-only']).default('any'),
  PROVIDER_URL_ALLOW: allowList,
  QUEUE_PREFIX: z.string().default('atelier'),
  /** A killed worker's runs are taken back (and ended with the reason) after this long. */
  RUN_LOCK_MS: int(30_000),
  /** How long a shutdown waits for running runs before leaving them to the reaper. */
  SHUTDOWN_GRACE_MS: int(30_000),
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
