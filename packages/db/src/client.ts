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
}

export const migrationsFolder = fileURLToPath(new URL('../../../drizzle', import.meta.url));
const MIGRATION_LOCK = 727_501_301;

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
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
  let queue: Promise<void> = Promise.resolve();
  return {
    db,
    kind: 'pglite',
    ping: async () => void (await client.query('select 1')),
    close: () => client.close(),
    // One process owns a PGlite directory, so an in-process queue of callers is the whole lock.
    exclusively: (fn) => {
      const run = queue.then(fn, fn);
      queue = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
  };
}

/**
 * Applies the committed migrations and seeds reference data. On PostgreSQL an advisory lock
 * serializes concurrent starters (several API processes, parallel test workers).
 */
export async function migrateDatabase(database: Database): Promise<void> {
  await database.exclusively(async () => {
    if (database.kind === 'pglite') await migratePglite(database.db as never, { migrationsFolder });
    else await migratePg(database.db as never, { migrationsFolder });
    await seedReferenceData(database.db);
  });
}

/** Rows of a raw SQL query; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
