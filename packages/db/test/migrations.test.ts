import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, migrationsFolder, openDatabase, queryRows, type Database } from '../src';
import { APPLICATION_ROLES, WORKSPACE_ROLES } from '../src/seed';

const TABLES = [
  'application_roles',
  'credit_ledger',
  'credit_plans',
  'one_time_tokens',
  'organizations',
  'page_views',
  'providers',
  'models',
  'chatbots',
  'chatbot_access',
  'conversations',
  'messages',
  'inference_logs',
  'runs',
  'node_executions',
  'refresh_tokens',
  'user_workspace_roles',
  'users',
  'workspace_roles',
  'workspaces',
];

async function tableNames(database: Database): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(
    database.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  return rows.map((r) => r.table_name);
}

describe('migrations', () => {
  it('never require the vector extension (vectors belong to the vector store)', () => {
    for (const file of readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql'))) {
      expect(readFileSync(join(migrationsFolder, file), 'utf8'), file).not.toMatch(/\bvector\b/i);
    }
  });
});

describe('embedded PGlite', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
  });
  afterAll(() => database.close());

  it('applies the migrations, seeds reference data, and is idempotent', async () => {
    await migrateDatabase(database);
    await migrateDatabase(database);
    expect(database.kind).toBe('pglite');
    expect(await tableNames(database)).toEqual(expect.arrayContaining(TABLES));
    const roles = await queryRows<{ id: string }>(
      database.db,
      sql`select id from application_roles order by rank desc`,
    );
    expect(roles.map((r) => r.id)).toEqual(APPLICATION_ROLES.map((r) => r.id));
    const wsRoles = await queryRows<{ id: string }>(
      database.db,
      sql`select id from workspace_roles order by rank desc`,
    );
    expect(wsRoles.map((r) => r.id)).toEqual(WORKSPACE_ROLES.map((r) => r.id));
  });

  it('carries pgvector, for the vector store to use', async () => {
    await database.db.execute(sql`create extension if not exists vector`);
    const rows = await queryRows<{ d: number }>(
      database.db,
      sql`select '[1,2,3]'::vector <-> '[1,2,4]'::vector as d`,
    );
    expect(Number(rows[0]?.d)).toBe(1);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ url: process.env.DATABASE_URL, poolSize: 4 });
  });
  afterAll(() => database.close());

  it('applies the same migrations, also when several starters race', async () => {
    await Promise.all([migrateDatabase(database), migrateDatabase(database), migrateDatabase(database)]);
    expect(database.kind).toBe('postgres');
    expect(await tableNames(database)).toEqual(expect.arrayContaining(TABLES));
  });
});
