import { randomBytes } from 'node:crypto';
import { migrateDatabase, openDatabase, type Database } from '@atelier/db';
import pg from 'pg';

/**
 * The database integration tests use: PostgreSQL when DATABASE_URL is set (CI), otherwise an
 * in-memory PGlite. It is opened and migrated once per test worker and shared by the files it runs;
 * tests stay independent by creating their own organizations.
 */
export function sharedTestDatabase(): Promise<Database> {
  const holder = globalThis as { __atelierTestDb?: Promise<Database> };
  holder.__atelierTestDb ??= (async () => {
    const database = await openDatabase({ url: process.env.DATABASE_URL, poolSize: 5 });
    await migrateDatabase(database);
    return database;
  })();
  return holder.__atelierTestDb;
}

/** A brand-new, migrated, empty database of the same kind, dropped again by `close()`. */
export async function isolatedTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openDatabase({});
    await migrateDatabase(database);
    return database;
  }
  const name = `atelier_iso_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.toString(), poolSize: 3 });
  await migrateDatabase(database);
  return {
    ...database,
    close: async () => {
      await database.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
