import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { preparingClient } from './preparing-client';
import { SOCKET_PORT, startEmbeddedServer } from './embedded/process';
import { privateDir, restrictUmask, tightenTree } from './private-files';
import * as schema from './tables';
import { seedReferenceData } from './seed';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A handle usable both as the database and inside a transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Runs `fn` while holding a database-wide lock (a no-op on the single-process PGlite). */
  exclusively<T>(fn: () => Promise<T>): Promise<T>;
}

export interface OpenOptions {
  /** PostgreSQL connection string; without it the embedded PGlite is used. */
  url?: string | undefined;
  /** Where PGlite keeps its files; omitted means in memory (tests). */
  dataDir?: string | undefined;
  poolSize?: number;
  /**
   * Where the embedded PGlite runs: `process` (what the API and the CLI start: a process of its own
   * behind a Unix socket, reached with the same node-postgres driver as PostgreSQL, so its work runs
   * off the caller's event loop and its memory is not the caller's), or `in-process` (the default: on
   * the caller's event loop; tests use it, as it starts faster).
   */
  embedded?: 'process' | 'in-process';
  /** PostgreSQL: how long getting a connection may take before the call fails. */
  connectTimeoutMs?: number;
}

/**
 * Connections to the embedded database's process. Its multiplexer runs one pipeline at a time; a few
 * connections keep it busy while the caller's event loop turns around, more only cost memory there.
 */
export const EMBEDDED_POOL_SIZE = 4;

export const migrationsFolder = fileURLToPath(new URL('../../../drizzle', import.meta.url));
const MIGRATION_LOCK = 727_501_301;
/**
 * How long taking a pooled connection may wait (a new connection, or a free one) before failing, unless
 * the caller says (the API and the worker: DB_CONNECT_TIMEOUT_MS). A refused connection fails at once.
 */
const CONNECT_TIMEOUT_MS = 10_000;
/** An idle pooled connection to PostgreSQL is closed after this long (10 minutes). */
const IDLE_CONNECTION_MS = 600_000;

/** One caller at a time (the embedded database has one owner, so an in-process queue is the whole lock). */
function inProcessLock(): Database['exclusively'] {
  let queue: Promise<void> = Promise.resolve();
  return (fn) => {
    const run = queue.then(fn, fn);
    queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };
}

async function openEmbeddedProcess(options: OpenOptions): Promise<Database> {
  const server = await startEmbeddedServer(options.dataDir);
  const pool = new pg.Pool({
    host: server.socketDir,
    port: SOCKET_PORT,
    user: 'postgres',
    database: 'postgres',
    max: EMBEDDED_POOL_SIZE,
    Client: preparingClient(),
    // Connections are kept: each holds its prepared statements in the database process.
    idleTimeoutMillis: 0,
  });
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    ping: async () => void (await pool.query('select 1')),
    close: async () => {
      await pool.end();
      await server.stop();
    },
    exclusively: inProcessLock(),
  };
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (!options.url && options.embedded === 'process') return openEmbeddedProcess(options);
  if (options.url) {
    // A database out of reach fails a call within seconds (503) instead of holding it; the pool
    // reconnects by itself once it is back.
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      Client: preparingClient(),
      connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      keepAlive: true,
      // A connection outlives a lull between bursts (pg's default closes it after 10 s idle): a new one
      // loads the catalog again and plans each prepared statement anew (the chat's first read: 6 ms,
      // then 5 custom plans of 0.4-1 ms before its generic plan of 0.02 ms).
      idleTimeoutMillis: IDLE_CONNECTION_MS,
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      ping: async () => void (await pool.query('select 1')),
      close: () => pool.end(),
      exclusively: async (fn) => {
        // A session-level advisory lock lives on one connection, so hold a dedicated client.
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
          return await fn();
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
          client.release();
        }
      },
    };
  }
  if (options.dataDir) {
    // Database files are owner-only: files PGlite creates from now on, and those an earlier version
    // left readable and writable by everyone.
    restrictUmask();
    privateDir(options.dataDir);
    tightenTree(options.dataDir);
  }
  const client = new PGlite({ dataDir: options.dataDir, extensions: { vector } });
  await client.waitReady;
  // A new cluster is unpacked with its own modes (0666 files), whatever the umask.
  if (options.dataDir) tightenTree(options.dataDir);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    ping: async () => void (await client.query('select 1')),
    close: () => client.close(),
    // One process owns a PGlite directory, so an in-process queue of callers is the whole lock.
    exclusively: inProcessLock(),
  };
}

/**
 * Applies the committed migrations and seeds reference data. On PostgreSQL an advisory lock
 * serializes concurrent starters (several API processes, parallel test workers).
 */
export async function migrateDatabase(database: Database): Promise<void> {
  await database.exclusively(async () => {
    // The driver decides (the embedded database's process is reached through node-postgres).
    if ((database.db as unknown as { $client?: unknown }).$client instanceof PGlite)
      await migratePglite(database.db as never, { migrationsFolder });
    else await migratePg(database.db as never, { migrationsFolder });
    await seedReferenceData(database.db);
  });
}

/** Rows of a raw SQL query; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
