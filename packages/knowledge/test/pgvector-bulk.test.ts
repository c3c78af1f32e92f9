import { openDatabase } from '@atelier/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPgvectorStore,
  encodeVectorArray,
  toSqlClient,
  type ChunkInput,
  type PgvectorStore,
  type SqlClient,
} from '../src';
import { databaseUrl, dropSchemas, uniqueName, vectorUnavailable } from './postgres';
import { cosine, randomVector, seeded } from './store-contract';

interface BulkSubject {
  store: PgvectorStore;
  sql: SqlClient;
  schema: string;
  cleanup(): Promise<void>;
}

const DIMENSION = 16;

function chunks(count: number, seed: number, from = 0): ChunkInput[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return {
      id: `b${i}`,
      content: `bulk chunk ${i}`,
      embedding: randomVector(random, DIMENSION),
      metadata: { document_id: `doc-${Math.floor(i / 10)}`, bucket: i % 10, group: { name: `g${i % 4}` } },
    };
  });
}

/** Bulk loads (indexes dropped, rows inserted, indexes rebuilt) and filtered queries over them. */
function describeBulkLoad(name: string, makeSubject: () => Promise<BulkSubject>): void {
  describe(`pgvector bulk load and filtered queries: ${name}`, () => {
    let subject: BulkSubject;
    const all = chunks(10_000, 99);
    beforeAll(async () => {
      subject = await makeSubject();
      await subject.store.createCollection({ name: 'loaded', dimension: DIMENSION });
    }, 60_000);
    afterAll(() => subject?.cleanup());

    const indexes = async () =>
      (
        await subject.sql.query<{ name: string }>(
          'SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 ORDER BY 1',
          [subject.schema, 'loaded'],
        )
      ).map((row) => row.name);

    it('loads batches in one transaction and rebuilds the indexes once', async () => {
      function* batches() {
        for (let start = 0; start < all.length; start += 2_500) yield all.slice(start, start + 2_500);
      }
      expect(await subject.store.bulkLoad('loaded', batches())).toBe(10_000);
      expect((await subject.store.collectionInfo('loaded')).count).toBe(10_000);
      expect(await indexes()).toEqual(['_loaded_hnsw', '_loaded_metadata', '_loaded_tsv', 'loaded_pkey']);
      // upsert with the bulk hint into a collection much larger than the load: the ordinary path.
      const revised = all.slice(0, 3).map((chunk) => ({ ...chunk, content: `${chunk.content} (revised)` }));
      expect(await subject.store.upsert('loaded', revised, { bulk: true })).toBe(3);
      const text = await subject.store.textSearch('loaded', { query: 'revised', topK: 5 });
      expect(text.map((hit) => hit.id).sort()).toEqual(['b0', 'b1', 'b2']);
    }, 180_000);

    it('answers the exact top-k of a filter matching 1,000 documents (1,000 of 10,000 chunks)', async () => {
      const random = seeded(5);
      for (let q = 0; q < 3; q++) {
        const vector = randomVector(random, DIMENSION);
        const bucket = q * 3;
        const exact = all
          .filter((chunk) => chunk.metadata!.bucket === bucket)
          .map((chunk) => ({ id: chunk.id, similarity: cosine(vector, chunk.embedding) }))
          .sort((a, b) => b.similarity - a.similarity)
          .slice(0, 10)
          .map((hit) => hit.id);
        const result = await subject.store.query('loaded', {
          vector,
          topK: 10,
          filter: { field: 'bucket', op: 'eq', value: bucket },
        });
        expect(result.map((hit) => hit.id)).toEqual(exact);
      }
      // A nested equality and a rare one (one chunk: fewer than topK, so the exact fallback answers).
      const rare = await subject.store.query('loaded', {
        vector: randomVector(random, DIMENSION),
        topK: 100,
        filter: {
          and: [
            { field: 'group.name', op: 'eq', value: 'g1' },
            { field: 'bucket', op: 'in', value: [1, 2] },
            { field: 'document_id', op: 'eq', value: 'doc-0' },
          ],
        },
      });
      expect(rare.map((hit) => hit.id).sort()).toEqual(['b1']);
    });

    it('walks the index as wide as top-k needs (hnsw.ef_search set with the read)', async () => {
      // Unset, the HNSW scan stops at its default breadth of 40 rows, whatever the top-k.
      const hits = await subject.store.query('loaded', {
        vector: randomVector(seeded(9), DIMENSION),
        topK: 100,
      });
      expect(hits).toHaveLength(100);
    });

    it('bulk-loads through upsert({ bulk: true }) into an empty collection', async () => {
      await subject.store.createCollection({ name: 'hinted', dimension: DIMENSION });
      expect(await subject.store.upsert('hinted', chunks(500, 3), { bulk: true })).toBe(500);
      const [top] = await subject.store.query('hinted', { vector: chunks(1, 3)[0]!.embedding, topK: 1 });
      expect(top?.id).toBe('b0');
    });

    it("keeps a chunk's values in its row: 1,536-d chunks write nothing to the TOAST table", async () => {
      // With the default storage, a row wider than 2 kB had its content, metadata, sketch and full text
      // moved out to the TOAST table, each read back through its index by every filter and answer.
      await subject.store.createCollection({ name: 'wide', dimension: 1_536 });
      const random = seeded(7);
      const wide = Array.from({ length: 20 }, (_, i) => ({
        id: `w${i}`,
        content: `${'A paragraph of an ordinary document, long enough to be worth compressing. '.repeat(8)}${i}`,
        embedding: randomVector(random, 1_536),
        metadata: { document_id: `doc-${i}`, filename: `file-${i}.pdf`, chunk_index: i },
      }));
      await subject.store.upsert('wide', wide);
      const [row] = await subject.sql.query<{ toast: string | number; heap: string | number }>(
        `SELECT pg_relation_size(c.reltoastrelid) AS toast, pg_relation_size(c.oid) AS heap
           FROM pg_class c WHERE c.oid = to_regclass($1)`,
        [`${subject.schema}.wide`],
      );
      expect(Number(row!.heap)).toBeGreaterThan(0);
      expect(Number(row!.toast)).toBe(0);
      const [hit] = await subject.store.query('wide', {
        vector: wide[3]!.embedding,
        topK: 1,
        filter: { field: 'document_id', op: 'eq', value: 'doc-3' },
      });
      expect(hit).toMatchObject({ id: 'w3', content: wide[3]!.content, metadata: wide[3]!.metadata });
      await subject.store.dropCollection('wide');
    });

    it('defers the vector index: exact search meanwhile, then one build, made once', async () => {
      await subject.store.createCollection({
        name: 'deferred',
        dimension: DIMENSION,
        deferVectorIndex: true,
      });
      const names = async () =>
        (
          await subject.sql.query<{ name: string }>(
            'SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 ORDER BY 1',
            [subject.schema, 'deferred'],
          )
        ).map((row) => row.name);
      expect(await names()).toEqual(['_deferred_metadata', '_deferred_tsv', 'deferred_pkey']);
      // A document's chunks are found by containment in the metadata index on every re-ingestion and
      // delete: no pending list to read whole on each lookup.
      const [meta] = await subject.sql.query<{ options: string[] | null }>(
        'SELECT reloptions AS options FROM pg_class WHERE oid = to_regclass($1)',
        [`${subject.schema}._deferred_metadata`],
      );
      expect(meta?.options).toEqual(['fastupdate=off']);
      const rows = all.slice(0, 2_000);
      await subject.store.upsert('deferred', rows);
      const probe = rows[1234]!.embedding;
      const exact = await subject.store.query('deferred', { vector: probe, topK: 5 });
      expect(exact[0]?.id).toBe('b1234');

      const both = await Promise.all([
        subject.store.buildVectorIndex('deferred'),
        subject.store.buildVectorIndex('deferred'),
      ]);
      expect(both.sort()).toEqual([false, true]);
      // The full-text index's pending entries (the words of every chunk just written) were merged with
      // the build: nothing is left to clean.
      const [pending] = await subject.sql.query<{ pages: number }>(
        'SELECT gin_clean_pending_list(to_regclass($1))::int AS pages',
        [`${subject.schema}._deferred_tsv`],
      );
      expect(pending?.pages).toBe(0);
      expect(await names()).toEqual([
        '_deferred_hnsw',
        '_deferred_metadata',
        '_deferred_tsv',
        'deferred_pkey',
      ]);
      // The graph is built with the store's parameters, written out (HNSW_BUILD).
      const [hnsw] = await subject.sql.query<{ options: string[] | null }>(
        'SELECT reloptions AS options FROM pg_class WHERE oid = to_regclass($1)',
        [`${subject.schema}._deferred_hnsw`],
      );
      expect(hnsw?.options).toEqual(['m=16', 'ef_construction=64']);
      const indexed = await subject.store.query('deferred', { vector: probe, topK: 5 });
      expect(indexed[0]?.id).toBe('b1234');
      expect(await subject.store.buildVectorIndex('deferred')).toBe(false);
    });
  });
}

describe('store options', () => {
  it('refuses a build worker count that is not a whole number', () => {
    // Options are checked when the store is made, before any statement: no database needed.
    const sql: SqlClient = {
      query: () => Promise.reject(new Error('no database')),
      transaction: () => Promise.reject(new Error('no database')),
      close: () => Promise.resolve(),
    };
    expect(() => createPgvectorStore(sql, { buildWorkers: -1 })).toThrow('buildWorkers is a whole number');
    expect(() => createPgvectorStore(sql, { buildWorkers: 1.5 })).toThrow('buildWorkers is a whole number');
    expect(createPgvectorStore(sql, { buildWorkers: 0 }).kind).toBe('pgvector');
  });
});

describe('encodeVectorArray', () => {
  it("writes PostgreSQL's binary array of pgvector's binary vectors", () => {
    const buffer = encodeVectorArray([[1, -2]], 2, 16_385);
    expect([...buffer]).toEqual([
      ...[0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 64, 1, 0, 0, 0, 1, 0, 0, 0, 1],
      ...[0, 0, 0, 12, 0, 2, 0, 0],
      ...[63, 128, 0, 0, 192, 0, 0, 0],
    ]);
  });
});

describeBulkLoad('PGlite', async () => {
  const database = await openDatabase({});
  const store = createPgvectorStore(database.db);
  return { store, sql: toSqlClient(database.db), schema: 'kb', cleanup: () => database.close() };
});

describe.skipIf(Boolean(vectorUnavailable))(
  `PostgreSQL with pgvector${vectorUnavailable ? ` (skipped: ${vectorUnavailable})` : ''}`,
  () => {
    describeBulkLoad('PostgreSQL (vectors sent as a binary vector[])', async () => {
      const schema = uniqueName('kb_bulk');
      const database = await openDatabase({ url: databaseUrl, poolSize: 2 });
      return {
        store: createPgvectorStore(database.db, { schema }),
        sql: toSqlClient(database.db),
        schema,
        cleanup: async () => {
          await database.close();
          await dropSchemas(schema);
        },
      };
    });
  },
);
