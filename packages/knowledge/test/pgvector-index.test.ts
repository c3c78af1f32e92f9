import { openDatabase } from '@atelier/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPgvectorStore,
  toSqlClient,
  type ChunkInput,
  type Distance,
  type QueryFn,
  type SqlClient,
} from '../src';
import { databaseUrl, dropSchemas, uniqueName, vectorUnavailable } from './postgres';
import { cosine, expectKnowledgeError, randomVector, seeded } from './store-contract';
import { hnswIndexDef, pgliteSubject, postgresSubject, type StoreSubject } from './store-subjects';

const DIMENSION = 24;

function chunks(count: number, seed: number, dimension = DIMENSION): ChunkInput[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i) => ({
    id: `c${i}`,
    content: `chunk ${i}`,
    embedding: randomVector(random, dimension),
    metadata: { n: i },
  }));
}

const measures: Record<Distance, (a: readonly number[], b: readonly number[]) => number> = {
  cosine: (a, b) => cosine(a, b),
  l2: (a, b) => -Math.hypot(...a.map((x, i) => x - b[i]!)),
  inner_product: (a, b) => a.reduce((sum, x, i) => sum + x * b[i]!, 0),
};

function exactTop(all: ChunkInput[], vector: number[], k: number, distance: Distance): string[] {
  return all
    .map((chunk) => ({ id: chunk.id, score: measures[distance](vector, chunk.embedding) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map((hit) => hit.id);
}

/** The store's statements as it sends them (to EXPLAIN the searches it makes). */
function recording(sql: SqlClient, seen: { text: string; params: unknown[] }[]): SqlClient {
  const wrap =
    (query: QueryFn): QueryFn =>
    (text, params) => {
      seen.push({ text, params: params ?? [] });
      return query(text, params);
    };
  const { withSettings } = sql;
  return {
    ...sql,
    query: wrap(sql.query),
    transaction: (fn, options) => {
      // The settings a read sends with its BEGIN, recorded as a statement of their own.
      if (options?.prelude) seen.push({ text: options.prelude, params: [] });
      return sql.transaction((query) => fn(wrap(query)), options);
    },
    ...(withSettings
      ? {
          withSettings: (settings, text, params, held) => {
            seen.push({ text, params });
            return withSettings(settings, text, params, held);
          },
        }
      : {}),
  };
}

function describeIndexes(name: string, makeSubject: () => Promise<StoreSubject>): void {
  describe(`pgvector HNSW indexes: ${name}`, () => {
    let subject: StoreSubject;
    beforeAll(async () => {
      subject = await makeSubject();
    }, 180_000);
    afterAll(() => subject?.cleanup());

    const indexDef = (table: string) => hnswIndexDef(subject, table);

    /**
     * The plan of the last search the store made, sequential scans off (a small table may not be
     * worth its index): its ordering must be the one its HNSW index serves.
     */
    /** The plan of the last search the store sent, under `settings` (default: sequential scans off). */
    async function lastSearchPlan(
      seen: { text: string; params: unknown[] }[],
      settings = "SELECT set_config('enable_seqscan', 'off', true)",
    ): Promise<string> {
      const search = seen.filter((s) => s.text.includes('AS distance')).at(-1)!;
      const rows = await subject.sql.transaction(async (query) => {
        await query(settings);
        return query<{ 'QUERY PLAN': string }>(`EXPLAIN ${search.text}`, search.params);
      });
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    }

    for (const distance of ['cosine', 'l2', 'inner_product'] as const) {
      it(`indexes half-precision vectors and answers the exact top-10 (${distance})`, async () => {
        const seen: { text: string; params: unknown[] }[] = [];
        const store = createPgvectorStore(recording(subject.sql, seen), { schema: subject.schema });
        const table = `half_${distance}`;
        await store.createCollection({ name: table, dimension: DIMENSION, distance, deferVectorIndex: true });
        const all = chunks(3_000, 11);
        await store.upsert(table, all);
        expect(await store.buildVectorIndex(table)).toBe(true);
        expect(await indexDef(table)).toContain(`(embedding)::halfvec(${DIMENSION})) halfvec_`);
        const random = seeded(12);
        for (let q = 0; q < 10; q++) {
          const vector = randomVector(random, DIMENSION);
          const hits = await store.query(table, { vector, topK: 10 });
          expect(hits.map((hit) => hit.id)).toEqual(exactTop(all, vector, 10, distance));
          // Scores come from the full-precision vectors.
          const best = all.find((chunk) => chunk.id === hits[0]!.id)!;
          expect(hits[0]!.score).toBeCloseTo(measures[distance](vector, best.embedding), 5);
        }
        expect(await lastSearchPlan(seen)).toMatch(new RegExp(`Index Scan using "?_${table}_hnsw`));
      }, 120_000);
    }

    it('indexes 3,072-d embeddings (text-embedding-3-large) as halfvec, even in a store that indexes full vectors', async () => {
      // pgvector's HNSW takes 2,000 dimensions of `vector`, 4,000 of `halfvec` (a store without sketches).
      const store = subject.store({ vectorIndex: 'vector', sketchFrom: Infinity });
      await store.createCollection({ name: 'large', dimension: 3_072, deferVectorIndex: true });
      const all = chunks(300, 61, 3_072);
      await store.upsert('large', all);
      expect(await store.buildVectorIndex('large')).toBe(true);
      expect(await store.vectorSearchReady('large')).toBe(true);
      expect(await indexDef('large')).toContain('(embedding)::halfvec(3072)) halfvec_cosine_ops');
      const random = seeded(62);
      for (let q = 0; q < 5; q++) {
        const vector = randomVector(random, 3_072);
        const hits = await store.query('large', { vector, topK: 5 });
        expect(hits.map((hit) => hit.id)).toEqual(exactTop(all, vector, 5, 'cosine'));
      }
    }, 120_000);

    it('gives 4,096-d embeddings no vector index in a store without sketches, and searches them exactly', async () => {
      const store = subject.store({ sketchFrom: Infinity });
      await store.createCollection({ name: 'widest', dimension: 4_096 });
      const all = chunks(200, 71, 4_096);
      expect(await store.vectorSearchReady('widest')).toBe(false); // empty
      await store.upsert('widest', all);
      expect(await indexDef('widest')).toBe('');
      expect(await store.buildVectorIndex('widest')).toBe(false);
      expect(await store.vectorSearchReady('widest')).toBe(true);
      const [registered] = await subject.sql.query<{ vector_index: string }>(
        `SELECT vector_index FROM "${subject.schema}"._collections WHERE name = 'widest'`,
      );
      expect(registered?.vector_index).toBe('none');
      const random = seeded(72);
      for (let q = 0; q < 3; q++) {
        const vector = randomVector(random, 4_096);
        const hits = await store.query('widest', { vector, topK: 5 });
        expect(hits.map((hit) => hit.id)).toEqual(exactTop(all, vector, 5, 'cosine'));
        const even = await store.query('widest', {
          vector,
          topK: 5,
          filter: { field: 'n', op: 'lt', value: 100 },
        });
        const below = all.filter((chunk) => Number(chunk.metadata!.n) < 100);
        expect(even.map((hit) => hit.id)).toEqual(exactTop(below, vector, 5, 'cosine'));
      }
      // A bulk load into it builds no vector index either.
      await store.createCollection({ name: 'widest_bulk', dimension: 4_096 });
      expect(await store.upsert('widest_bulk', all, { bulk: true })).toBe(200);
      expect(await indexDef('widest_bulk')).toBe('');
      const vector = randomVector(random, 4_096);
      const hits = await store.query('widest_bulk', { vector, topK: 3 });
      expect(hits.map((hit) => hit.id)).toEqual(exactTop(all, vector, 3, 'cosine'));
    }, 120_000);

    it('keeps searching collections whose index holds full-precision vectors (made before)', async () => {
      const legacy = subject.store({ vectorIndex: 'vector' });
      await legacy.createCollection({ name: 'full', dimension: DIMENSION });
      const all = chunks(1_000, 21);
      await legacy.upsert('full', all);
      expect(await indexDef('full')).toContain('USING hnsw (embedding vector_cosine_ops)');
      const seen: { text: string; params: unknown[] }[] = [];
      const store = createPgvectorStore(recording(subject.sql, seen), { schema: subject.schema });
      const vector = randomVector(seeded(22), DIMENSION);
      const hits = await store.query('full', { vector, topK: 5 });
      expect(hits.map((hit) => hit.id)).toEqual(exactTop(all, vector, 5, 'cosine'));
      expect(await lastSearchPlan(seen)).toMatch(/Index Scan using "?_full_hnsw/);
    });

    it('walks the index for a search wider than the default breadth, where the planner would scan every row', async () => {
      const seen: { text: string; params: unknown[] }[] = [];
      const store = createPgvectorStore(recording(subject.sql, seen), { schema: subject.schema });
      await store.createCollection({ name: 'wide', dimension: DIMENSION, deferVectorIndex: true });
      const all = chunks(3_000, 41);
      await store.upsert('wide', all);
      const vector = randomVector(seeded(42), DIMENSION);
      // Before the index exists, the same search is exact over every row (the only plan).
      const exact = await store.query('wide', { vector, topK: 100 });
      expect(exact.map((hit) => hit.id)).toEqual(exactTop(all, vector, 100, 'cosine'));
      expect(await store.buildVectorIndex('wide')).toBe(true);

      const hits = await store.query('wide', { vector, topK: 100 }); // ef_search 400
      expect(hits).toHaveLength(100);
      const found = new Set(exactTop(all, vector, 100, 'cosine'));
      expect(hits.filter((hit) => found.has(hit.id)).length).toBeGreaterThanOrEqual(95);
      const prelude = seen.filter((s) => s.text.includes("'hnsw.ef_search', '400'")).at(-1)!.text;
      expect(prelude).toContain('enable_seqscan');
      // With the breadth alone, the planner prefers scanning and sorting every row; with the store's
      // settings, it walks the index.
      expect(await lastSearchPlan(seen, "SELECT set_config('hnsw.ef_search', '400', true)")).toMatch(
        /Seq Scan/,
      );
      expect(await lastSearchPlan(seen, prelude)).toMatch(/Index Scan using "?_wide_hnsw/);
      // A search of the default breadth keeps its single statement.
      const before = seen.length;
      await store.query('wide', { vector, topK: 10 });
      expect(seen.slice(before).some((s) => s.text.includes('enable_seqscan'))).toBe(false);
    });

    it('reads a collection again when another process dropped it or made it with another dimension', async () => {
      const mine = subject.store();
      const other = subject.store();
      await mine.createCollection({ name: 'moving', dimension: 8 });
      await mine.upsert('moving', chunks(20, 31, 8));
      expect(await mine.query('moving', { vector: chunks(1, 31, 8)[0]!.embedding, topK: 1 })).toHaveLength(1);

      await other.dropCollection('moving');
      await other.createCollection({ name: 'moving', dimension: 16 });
      await other.upsert('moving', chunks(20, 32, 16));
      const [top] = await mine.query('moving', { vector: chunks(1, 32, 16)[0]!.embedding, topK: 1 });
      expect(top?.id).toBe('c0');
      expect(await mine.upsert('moving', chunks(3, 33, 16))).toBe(3);

      await other.dropCollection('moving');
      await expectKnowledgeError(
        mine.query('moving', { vector: chunks(1, 32, 16)[0]!.embedding, topK: 1 }),
        404,
        'collection_not_found',
      );
      await expectKnowledgeError(mine.upsert('moving', chunks(1, 34, 16)), 404, 'collection_not_found');
    });
  });
}

describeIndexes('PGlite', pgliteSubject);

describe.skipIf(Boolean(vectorUnavailable))(
  `PostgreSQL with pgvector${vectorUnavailable ? ` (skipped: ${vectorUnavailable})` : ''}`,
  () => {
    describeIndexes('PostgreSQL', () => postgresSubject('kb_index'));

    it('opens a registry made before halfvec indexes and languages (no vector_index, no text_language)', async () => {
      const schema = uniqueName('kb_legacy');
      const database = await openDatabase({ url: databaseUrl, poolSize: 2 });
      const sql = toSqlClient(database.db);
      try {
        const all = chunks(200, 41);
        await sql.query(`CREATE SCHEMA "${schema}"`);
        await sql.query(
          `CREATE TABLE "${schema}"._collections (name text PRIMARY KEY, dimension integer NOT NULL, distance text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
        );
        await sql.query(
          `CREATE TABLE "${schema}".old (id text PRIMARY KEY, content text NOT NULL, content_hash text NOT NULL, metadata jsonb NOT NULL DEFAULT '{}', embedding vector(${DIMENSION}) NOT NULL, tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', content)) STORED)`,
        );
        await sql.query(
          `CREATE INDEX "_old_hnsw" ON "${schema}".old USING hnsw (embedding vector_cosine_ops)`,
        );
        await sql.query(
          `INSERT INTO "${schema}"._collections (name, dimension, distance) VALUES ('old', $1, 'cosine')`,
          [DIMENSION],
        );
        const store = createPgvectorStore(database.db, { schema });
        expect(await store.upsert('old', all)).toBe(200);
        const vector = randomVector(seeded(42), DIMENSION);
        const hits = await store.query('old', { vector, topK: 3 });
        expect(hits.map((hit) => hit.id)).toEqual(exactTop(all, vector, 3, 'cosine'));
        // Its words are read as before (simple).
        expect(await store.textSearch('old', { query: all[0]!.content, topK: 1 })).toHaveLength(1);
        // New collections beside it get the halfvec index, and the language asked.
        await store.createCollection({ name: 'fresh', dimension: DIMENSION, textLanguage: 'french' });
        const [kind] = await sql.query<{ vector_index: string; text_language: string }>(
          `SELECT vector_index, text_language FROM "${schema}"._collections WHERE name = 'fresh'`,
        );
        expect(kind).toEqual({ vector_index: 'halfvec', text_language: 'french' });
      } finally {
        await database.close();
        await dropSchemas(schema);
      }
    });
  },
);

describe.skipIf(Boolean(vectorUnavailable))(
  `PostgreSQL with pgvector: the deferred index build${vectorUnavailable ? ` (skipped: ${vectorUnavailable})` : ''}`,
  () => {
    it("builds with the server's parallel maintenance workers and leaves no table option behind", async () => {
      const schema = uniqueName('kb_parallel');
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      // The server says at DEBUG1 how many workers a build used.
      const said: string[] = [];
      pool.on('connect', (client) => {
        client.on('notice', (notice) => said.push(notice.message ?? ''));
        void client.query('SET client_min_messages = debug1');
      });
      try {
        const store = createPgvectorStore(toSqlClient(pool), { schema });
        await store.createCollection({ name: 'built', dimension: DIMENSION, deferVectorIndex: true });
        const all = chunks(500, 51);
        await store.upsert('built', all);
        expect(await store.buildVectorIndex('built')).toBe(true);
        expect(said.join('\n')).toMatch(/using [1-9]\d* parallel workers/);
        const [table] = (
          await pool.query<{ options: string[] | null }>(
            'SELECT reloptions AS options FROM pg_class WHERE oid = $1::regclass',
            [`"${schema}".built`],
          )
        ).rows;
        expect(table?.options ?? null).toBeNull();
        const vector = randomVector(seeded(52), DIMENSION);
        const hits = await store.query('built', { vector, topK: 5 });
        expect(hits.map((hit) => hit.id)).toEqual(exactTop(all, vector, 5, 'cosine'));

        // A bulk load rebuilds its indexes the same way.
        said.length = 0;
        await store.createCollection({ name: 'loaded', dimension: DIMENSION });
        expect(await store.bulkLoad('loaded', [chunks(500, 53)])).toBe(500);
        expect(said.join('\n')).toMatch(/using [1-9]\d* parallel workers/);
      } finally {
        await pool.end();
        await dropSchemas(schema);
      }
    });
  },
);
