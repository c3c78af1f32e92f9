import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const databaseUrl = process.env.DATABASE_URL;

/** Whether the PostgreSQL at DATABASE_URL can hold pgvector (creating the extension when it can). */
async function probeVector(): Promise<string | undefined> {
  if (!databaseUrl) return 'DATABASE_URL is not set';
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The store's own lock: test files on parallel workers create the extension once, not racing.
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(727501417)');
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
    await client.query('COMMIT');
    return undefined;
  } catch (error) {
    return `CREATE EXTENSION vector failed: ${(error as Error).message}`;
  } finally {
    await client.end();
  }
}

export const vectorUnavailable = await probeVector();
if (vectorUnavailable) {
  console.warn(`Skipping the PostgreSQL pgvector store tests: ${vectorUnavailable}`);
}

export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex')}`;

export async function dropSchemas(...schemas: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
