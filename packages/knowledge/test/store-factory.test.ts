import { openDatabase, type Database } from '@atelier/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_FACTORIES, toSqlClient, type ConnectorRecord, type KnowledgeDeps } from '../src';
import { randomVector, seeded } from './store-contract';

const connector: ConnectorRecord = {
  id: '00000000-0000-4000-8000-000000000001',
  organizationId: '00000000-0000-4000-8000-000000000002',
  workspaceId: '00000000-0000-4000-8000-000000000003',
  kind: 'builtin',
  settings: {},
  secretEncrypted: null,
};

// The built-in store on the embedded PGlite: what index its collections get.
describe('the built-in store on the embedded database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
  }, 120_000);
  afterAll(() => database.close());

  const indexOf = async (name: string) => {
    const [row] = await toSqlClient(database.db).query<{ vector_index: string; definition: string }>(
      `SELECT c.vector_index, i.indexdef AS definition FROM kb._collections c
         JOIN pg_indexes i ON i.schemaname = 'kb' AND i.indexname = '_' || c.name || '_hnsw'
        WHERE c.name = $1`,
      [name],
    );
    return row;
  };

  it('gives collections a vector HNSW index (PGlite converts half floats in software), and finds with it', async () => {
    const deps = { db: database.db, embeddedDatabase: true } as unknown as KnowledgeDeps;
    const store = await STORE_FACTORIES.builtin(connector, deps);
    await store.createCollection({ name: 'embedded_kind', dimension: 8 });
    expect(await indexOf('embedded_kind')).toMatchObject({ vector_index: 'vector' });
    expect((await indexOf('embedded_kind'))?.definition).toContain('vector_cosine_ops');
    const random = seeded(7);
    const chunks = Array.from({ length: 30 }, (_, i) => ({
      id: `c${i}`,
      content: `chunk ${i}`,
      embedding: randomVector(random, 8),
      metadata: {},
    }));
    await store.upsert('embedded_kind', chunks);
    const [hit] = await store.query('embedded_kind', { vector: chunks[4]!.embedding, topK: 1 });
    expect(hit?.id).toBe('c4');
  });

  it('keeps the halfvec index elsewhere (a PostgreSQL server converts them in hardware)', async () => {
    const deps = { db: database.db } as unknown as KnowledgeDeps;
    const store = await STORE_FACTORIES.builtin(connector, deps);
    await store.createCollection({ name: 'server_kind', dimension: 8 });
    expect(await indexOf('server_kind')).toMatchObject({ vector_index: 'halfvec' });
  });

  it('leaves a small collection without an HNSW index (exact searches: no build holds the database), and builds it past the limit', async () => {
    const random = seeded(11);
    const chunks = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: `e${i}`,
        content: `chunk ${i}`,
        embedding: randomVector(random, 8),
        metadata: {},
      }));
    const store = await STORE_FACTORIES.builtin(connector, {
      db: database.db,
      embeddedDatabase: true,
      exactSearchUpTo: 25,
    } as unknown as KnowledgeDeps);
    await store.createCollection({ name: 'embedded_exact', dimension: 8, deferVectorIndex: true });
    expect(await store.vectorSearchReady!('embedded_exact')).toBe(false); // nothing to search yet
    const first = chunks(20);
    await store.upsert('embedded_exact', first);
    expect(await store.buildVectorIndex!('embedded_exact')).toBe(false);
    expect(await indexOf('embedded_exact')).toBeUndefined();
    expect(await store.vectorSearchReady!('embedded_exact')).toBe(true);
    const [hit] = await store.query('embedded_exact', { vector: first[7]!.embedding, topK: 1 });
    expect(hit?.id).toBe('e7');

    await store.upsert('embedded_exact', chunks(30)); // 30 chunks now: past the limit
    expect(await store.vectorSearchReady!('embedded_exact')).toBe(false);
    expect(await store.buildVectorIndex!('embedded_exact')).toBe(true);
    expect(await indexOf('embedded_exact')).toMatchObject({ vector_index: 'vector' });
    expect(await store.vectorSearchReady!('embedded_exact')).toBe(true);
  });
});
