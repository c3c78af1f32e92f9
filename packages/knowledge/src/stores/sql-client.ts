import type { Db } from '@atelier/db';
import pg from 'pg';

export type QueryFn = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

/** How a transaction starts and ends. */
export interface TransactionOptions {
  /**
   * A read: the block is READ ONLY, and its COMMIT is sent without waiting for it (the connection
   * goes back to the pool with it queued, so its next user's statements follow it): the reader has its
   * answer one round trip sooner.
   */
  readOnly?: boolean;
  /** Statements without parameters sent with the BEGIN, in the same round trip (settings, say). */
  prelude?: string;
}

/** The little a store needs from a database: parameterized queries and transactions on one connection. */
export interface SqlClient {
  query: QueryFn;
  transaction<T>(fn: (query: QueryFn) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * One statement on a connection whose session carries `settings`. A pool's connection keeps them: each
   * is set once per connection and value (a round trip before the statement), so in steady state this is
   * one round trip where a transaction with local settings takes two. Only for settings every user of
   * the connection may carry (the HNSW scan's breadth: only searches read it). They may not hold when the
   * statement runs (the embedded database's connections share one session): `held` says from the rows
   * whether they did; when not, this answers null (use a transaction) and the connection's settings are
   * set again next time. Absent: use a transaction.
   */
  withSettings?<T>(
    settings: Readonly<Record<string, string>>,
    text: string,
    params: unknown[],
    held: (rows: T[]) => boolean,
  ): Promise<T[] | null>;
  close(): Promise<void>;
  /** node-postgres: a Buffer parameter travels in binary format (vectors then skip text formatting). */
  binaryParameters?: boolean;
}

interface PgliteLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  transaction<T>(
    fn: (tx: {
      query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
      exec(text: string): Promise<unknown>;
    }) => Promise<T>,
  ): Promise<T>;
}

function isPool(value: unknown): value is pg.Pool {
  return (
    value instanceof pg.Pool ||
    (typeof value === 'object' && value !== null && 'connect' in value && 'totalCount' in value)
  );
}

function isPglite(value: unknown): value is PgliteLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    'transaction' in value &&
    'query' in value &&
    'exec' in value
  );
}

export function poolClient(pool: pg.Pool, owned: boolean): SqlClient {
  /** The session settings each connection was given (see withSettings). */
  const sessions = new WeakMap<pg.PoolClient, Map<string, string>>();
  return {
    query: async <T>(text: string, params?: unknown[]) => (await pool.query(text, params)).rows as T[],
    transaction: async (fn, options = {}) => {
      const client = await pool.connect();
      try {
        const begin = options.readOnly ? 'BEGIN READ ONLY' : 'BEGIN';
        await client.query(options.prelude ? `${begin}; ${options.prelude}` : begin);
        const result = await fn(
          async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[],
        );
        if (options.readOnly) client.query('COMMIT').catch(() => undefined);
        else await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    withSettings: async <T>(
      settings: Readonly<Record<string, string>>,
      text: string,
      params: unknown[],
      held: (rows: T[]) => boolean,
    ) => {
      const client = await pool.connect();
      try {
        let known = sessions.get(client);
        if (!known) sessions.set(client, (known = new Map()));
        const changed = Object.entries(settings).filter(([name, value]) => known.get(name) !== value);
        if (changed.length > 0) {
          const calls = changed.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, false)`);
          await client.query(`SELECT ${calls.join(', ')}`, changed.flat());
          for (const [name, value] of changed) known.set(name, value);
        }
        const rows = (await client.query(text, params)).rows as T[];
        if (held(rows)) return rows;
        sessions.delete(client);
        return null;
      } catch (error) {
        sessions.delete(client);
        throw error;
      } finally {
        client.release();
      }
    },
    close: async () => {
      if (owned) await pool.end();
    },
    binaryParameters: true,
  };
}

export function pgliteClient(db: PgliteLike): SqlClient {
  return {
    query: async <T>(text: string, params?: unknown[]) => (await db.query(text, params)).rows as T[],
    transaction: (fn, options = {}) =>
      db.transaction(async (tx) => {
        if (options.readOnly) await tx.exec('SET TRANSACTION READ ONLY');
        if (options.prelude) await tx.exec(options.prelude);
        return fn(async <T>(text: string, params?: unknown[]) => (await tx.query(text, params)).rows as T[]);
      }),
    close: async () => undefined,
  };
}

/** A store's database: Atelier's drizzle `Db` (PostgreSQL pool or PGlite), a `pg.Pool`, or a ready `SqlClient`. */
export type SqlSource = Db | pg.Pool | SqlClient;

export function toSqlClient(source: SqlSource): SqlClient {
  if (isPool(source)) return poolClient(source, false);
  if (
    'transaction' in source &&
    'close' in source &&
    !('$client' in source) &&
    typeof source.query === 'function'
  ) {
    return source as SqlClient;
  }
  const driver = (source as { $client?: unknown }).$client;
  if (isPool(driver)) return poolClient(driver, false);
  if (isPglite(driver)) return pgliteClient(driver);
  throw new TypeError('A vector store needs a drizzle Db over pg or PGlite, a pg.Pool, or a SqlClient');
}
