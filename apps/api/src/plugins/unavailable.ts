/**
 * Recognizes an error that means PostgreSQL or Redis is out of reach (stopped, restarting, network
 * cut), whatever layer raised it (pg, drizzle's wrapper, ioredis, BullMQ), so the error handler can
 * answer 503 with a sentence instead of a 500.
 */
export type Dependency = 'database' | 'redis' | 'service';

const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const PG_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|is not queryable|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to administrator command/;
const REDIS_MESSAGES =
  /Connection is closed|Stream isn't writeable|enableOfflineQueue|Command timed out|max retries per request|MaxRetriesPerRequest/i;

interface Inspectable {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The error and everything it wraps (causes, aggregated errors), at most a few levels deep. */
function chain(error: unknown, depth = 0): Inspectable[] {
  if (!error || typeof error !== 'object' || depth > 5) return [];
  const e = error as Inspectable;
  const inner = Array.isArray(e.errors) ? e.errors.flatMap((x) => chain(x, depth + 1)) : [];
  return [e, ...chain(e.cause, depth + 1), ...inner];
}

export function unavailableDependency(error: unknown): Dependency | null {
  const all = chain(error);
  const text = (e: Inspectable) => (typeof e.message === 'string' ? e.message : '');
  const code = (e: Inspectable) => (typeof e.code === 'string' ? e.code : '');
  const fromDb = all.some((e) => e.name === 'DrizzleQueryError' || text(e).startsWith('Failed query'));
  const pgDown = all.some(
    (e) => PG_MESSAGES.test(text(e)) || /^08|^57P0[123]$/.test(code(e)) || (fromDb && NET_CODES.has(code(e))),
  );
  if (pgDown) return 'database';
  if (all.some((e) => e.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.test(text(e)))) return 'redis';
  if (all.some((e) => NET_CODES.has(code(e)))) return 'service';
  return null;
}

export const UNAVAILABLE: Record<Dependency, [code: string, detail: string]> = {
  database: ['database_unavailable', 'The database is unavailable right now. Please try again in a moment.'],
  redis: [
    'redis_unavailable',
    'Redis (the run queue and event streams) is unavailable right now. Please try again in a moment.',
  ],
  service: [
    'service_unavailable',
    'A service Atelier depends on is unavailable right now. Please try again in a moment.',
  ],
};
