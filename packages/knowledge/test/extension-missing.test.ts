import { openDatabase, type Database } from '@atelier/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgvectorStore, type PgvectorStore } from '../src';
import { expectKnowledgeError } from './store-contract';
import { databaseUrl, dropSchemas, uniqueName } from './postgres';

/**
 * The real failure path of a PostgreSQL without pgvector: the store runs `CREATE EXTENSION` for an
 * extension the server does not have (here named by the store option, since the machine's PostgreSQL
 * and PGlite both have pgvector), and the server's error must become the clear 503.
 */
async function expectMissing(store: PgvectorStore): Promise<void> {
  const error = await expectKnowledgeError(
    store.createCollection({ name: 'anything', dimension: 3 }),
    503,
    'vector_extension_missing',
  );
  expect(error.detail).toMatch(/no pgvector extension/);
  expect(error.detail).toMatch(/not available|could not open/i);
  expect(error.detail).toMatch(/Install pgvector/);
  // Every use answers the same, not only the first one (the failure is not cached as success).
  await expectKnowledgeError(store.listCollections(), 503, 'vector_extension_missing');
  await expectKnowledgeError(
    store.query('anything', { vector: [1, 2, 3], topK: 1 }),
    503,
    'vector_extension_missing',
  );
}

describe('a PostgreSQL without the vector extension', () => {
  // A new PGlite takes seconds to start (more on a loaded machine): opened in the hook, whose budget
  // is sized for it, not inside the test's.
  let pglite: Database;
  beforeAll(async () => {
    pglite = await openDatabase({});
  });
  afterAll(async () => {
    await pglite?.close();
  });

  it('answers 503 vector_extension_missing on PGlite, and the database keeps working', async () => {
    await expectMissing(createPgvectorStore(pglite.db, { extension: 'atelier_absent_extension' }));
    await pglite.ping();
    // The store with the real extension works on the same database.
    const store = createPgvectorStore(pglite.db);
    await store.createCollection({ name: 'fine', dimension: 2 });
    expect((await store.listCollections()).map((c) => c.name)).toEqual(['fine']);
  });

  it.skipIf(!databaseUrl)(
    'answers 503 vector_extension_missing on PostgreSQL, and the database keeps working',
    async () => {
      const schema = uniqueName('kb_missing');
      const database = await openDatabase({ url: databaseUrl, poolSize: 2 });
      try {
        await expectMissing(
          createPgvectorStore(database.db, { extension: 'atelier_absent_extension', schema }),
        );
        await database.ping();
        // Nothing of the store was left behind by the failed attempts.
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        const found = await client.query('select count(*)::int as n from pg_namespace where nspname = $1', [
          schema,
        ]);
        await client.end();
        expect(found.rows[0].n).toBe(0);
      } finally {
        await database.close();
        await dropSchemas(schema);
      }
    },
  );
});
