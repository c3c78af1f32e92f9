import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bitSketchOf, type ChunkInput, type Distance, type PgvectorStoreOptions } from '../src';
import { vectorUnavailable } from './postgres';
import { cosine, seeded } from './store-contract';
import { hnswIndexDef, pgliteSubject, postgresSubject, type StoreSubject } from './store-subjects';

/**
 * Embeddings as models give them: clustered (texts of one topic near each other), not uniform noise,
 * where every point is about as far as every other and no index, sketch or not, finds true neighbours.
 */
function clustered(count: number, dimension: number, seed: number, offset = 0): ChunkInput[] {
  const gaussianOf = (random: () => number) => () =>
    Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random());
  // The topics come from `seed`; the texts of each call (`offset`) are its own.
  const topic = gaussianOf(seeded(seed));
  const centers = Array.from({ length: 40 }, () => Array.from({ length: dimension }, topic));
  const random = seeded(seed * 7_919 + offset + 1);
  const gaussian = gaussianOf(random);
  return Array.from({ length: count }, (_, i) => {
    const center = centers[Math.floor(random() * centers.length)]!;
    const scale = 0.5 + random();
    return {
      id: `c${i + offset}`,
      content: `chunk ${i + offset}`,
      embedding: center.map((x) => scale * (x + 0.8 * gaussian())),
      metadata: { n: i + offset, half: i % 2 === 0 ? 'even' : 'odd' },
    };
  });
}

const measures: Record<Distance, (a: readonly number[], b: readonly number[]) => number> = {
  cosine,
  l2: (a, b) => -Math.sqrt(a.reduce((sum, x, i) => sum + (x - b[i]!) ** 2, 0)),
  inner_product: (a, b) => a.reduce((sum, x, i) => sum + x * b[i]!, 0),
};

function exactTop(all: ChunkInput[], vector: readonly number[], k: number, distance: Distance): string[] {
  return all
    .map((chunk) => ({ id: chunk.id, score: measures[distance](vector, chunk.embedding) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map((hit) => hit.id);
}

function describeSketches(
  name: string,
  makeSubject: () => Promise<StoreSubject>,
  options: PgvectorStoreOptions,
  lz4: boolean,
) {
  describe(`sketch indexes of wide embeddings: ${name}`, () => {
    let subject: StoreSubject;
    beforeAll(async () => {
      subject = await makeSubject();
    }, 180_000);
    afterAll(() => subject?.cleanup());

    const indexDef = (table: string) => hnswIndexDef(subject, table);
    const kindOf = async (table: string) => {
      const [row] = await subject.sql.query<{ vector_index: string }>(
        `SELECT vector_index FROM "${subject.schema}"._collections WHERE name = $1`,
        [table],
      );
      return row?.vector_index;
    };
    const precision = options.vectorIndex ?? 'halfvec';

    for (const distance of ['cosine', 'l2', 'inner_product'] as const) {
      it(`indexes 1,536-d embeddings by their sketch and orders its candidates by the full vectors (${distance})`, async () => {
        const store = subject.store(options);
        const table = `sketch_${distance}`;
        await store.createCollection({ name: table, dimension: 1_536, distance, deferVectorIndex: true });
        const all = clustered(2_000, 1_536, 3);
        await store.upsert(table, all);
        expect(await store.buildVectorIndex(table)).toBe(true);
        // Cosine, the angle, is what sign bits keep: its sketch is binary, compared by Hamming distance.
        expect(await kindOf(table)).toBe(distance === 'cosine' ? 'sketch_bit' : `sketch_${precision}`);
        const opclass = {
          cosine: 'bit_hamming_ops',
          l2: `${precision}_l2_ops`,
          inner_product: `${precision}_ip_ops`,
        }[distance];
        expect(await indexDef(table)).toContain(`USING hnsw (sketch ${opclass})`);
        // The graphs' parameters, written out: a binary sketch's (BIT_SKETCH_BUILD), a float sketch's (SKETCH_BUILD).
        expect(await indexDef(table)).toContain(
          distance === 'cosine' ? "m='14', ef_construction='48'" : "m='12', ef_construction='48'",
        );
        const queries = clustered(10, 1_536, 3, 5_000); // the same topics, other texts
        let found = 0;
        for (const { embedding: vector } of queries) {
          const hits = await store.query(table, { vector, topK: 10 });
          expect(hits).toHaveLength(10);
          const truth = new Set(exactTop(all, vector, 10, distance));
          found += hits.filter((hit) => truth.has(hit.id)).length;
          // Scores are the full vectors' and in order.
          const best = all.find((chunk) => chunk.id === hits[0]!.id)!;
          // (in single precision: an inner product of 1,700 is exact to about 1e-4)
          expect(hits[0]!.score / measures[distance](vector, best.embedding)).toBeCloseTo(1, 5);
          const scores = hits.map((hit) => hit.score);
          expect(scores).toEqual([...scores].sort((a, b) => b - a));
        }
        expect(found / 100).toBeGreaterThanOrEqual(0.95);
      }, 120_000);
    }

    it('searches through the sketch index, with filters, and follows a chunk whose embedding changed', async () => {
      const store = subject.store(options);
      await store.createCollection({ name: 'sketched', dimension: 1_536 });
      const all = clustered(1_000, 1_536, 4);
      await store.upsert('sketched', all);
      // The plan the store's statement gets walks the sketch index.
      const vector = clustered(1, 1_536, 4, 9_000)[0]!.embedding;
      const plan = await subject.sql.transaction(async (query) => {
        await query("SELECT set_config('enable_seqscan', 'off', true)");
        const rows = await query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT id FROM "${subject.schema}".sketched t ORDER BY t.sketch <~> $1::bit(2048) LIMIT 200`,
          [bitSketchOf(1_536)(vector)],
        );
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      expect(plan).toMatch(/Index Scan using "?_sketched_hnsw/);

      const even = await store.query('sketched', {
        vector,
        topK: 10,
        filter: { field: 'half', op: 'eq', value: 'even' },
      });
      const evens = all.filter((chunk) => chunk.metadata!.half === 'even');
      const truth = new Set(exactTop(evens, vector, 10, 'cosine'));
      expect(even.every((hit) => hit.metadata.half === 'even')).toBe(true);
      expect(even.filter((hit) => truth.has(hit.id)).length).toBeGreaterThanOrEqual(9);

      // A bulk load writes sketches too, and builds the sketch index once.
      await store.createCollection({ name: 'sketched_bulk', dimension: 1_536 });
      expect(await store.bulkLoad('sketched_bulk', [all.slice(0, 500), all.slice(500)])).toBe(1_000);
      expect(await indexDef('sketched_bulk')).toContain('USING hnsw (sketch ');
      const loaded = await store.query('sketched_bulk', { vector, topK: 10 });
      const all10 = new Set(exactTop(all, vector, 10, 'cosine'));
      expect(loaded.filter((hit) => all10.has(hit.id)).length).toBeGreaterThanOrEqual(9);

      // c7 now holds another text's embedding: its sketch follows, so it is found by that one.
      const moved = { ...all[7]!, embedding: vector.map((x) => -x) };
      await store.upsert('sketched', [moved]);
      const [top] = await store.query('sketched', { vector: moved.embedding, topK: 1 });
      expect(top).toMatchObject({ id: 'c7' });
      expect(top!.score).toBeCloseTo(1, 4);
    }, 120_000);

    it('gives 1,024-d, 3,072-d and 4,096-d embeddings a sketch index (before: halfvec, and none)', async () => {
      const store = subject.store(options);
      // 1,024 dimensions rotate into 1,024 signs: two rotations make the 2,048 bits.
      for (const dimension of [1_024, 3_072, 4_096]) {
        const table = `wide_${dimension}`;
        await store.createCollection({ name: table, dimension, deferVectorIndex: true });
        const all = clustered(300, dimension, dimension);
        await store.upsert(table, all);
        expect(await store.buildVectorIndex(table)).toBe(true);
        expect(await kindOf(table)).toBe('sketch_bit');
        for (const { embedding: vector } of clustered(3, dimension, dimension, 1_000)) {
          const hits = await store.query(table, { vector, topK: 5 });
          expect(hits.map((hit) => hit.id)).toEqual(exactTop(all, vector, 5, 'cosine'));
        }
      }
    }, 120_000);

    it('keeps narrow embeddings on the whole vector, and a store may go without sketches', async () => {
      const store = subject.store(options);
      await store.createCollection({ name: 'narrow', dimension: 768 });
      expect(await kindOf('narrow')).toBe(precision);
      await subject
        .store({ ...options, sketchFrom: Infinity })
        .createCollection({ name: 'unsketched', dimension: 1_536 });
      expect(await kindOf('unsketched')).toBe(precision);
      expect(await indexDef('unsketched')).not.toContain('hnsw (sketch');
    });

    it('compresses vectors with lz4 where the server has it, and reads them back whole', async () => {
      const [server] = await subject.sql.query<{ lz4: boolean }>(
        "SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'",
      );
      // PostgreSQL here is built with lz4; the embedded database is not, and keeps the default (pglz).
      expect(server?.lz4).toBe(lz4);
      const store = subject.store(options);
      await store.createCollection({ name: 'compressed', dimension: 1_536 });
      const columns = await subject.sql.query<{ name: string; method: string }>(
        `SELECT attname AS name, attcompression AS method FROM pg_attribute
          WHERE attrelid = $1::regclass AND attnum > 0 AND attname <> 'id' AND NOT attisdropped ORDER BY attname`,
        [`"${subject.schema}".compressed`],
      );
      const method = lz4 ? 'l' : '';
      expect(columns).toEqual(
        ['content', 'content_hash', 'embedding', 'metadata', 'sketch', 'tsv'].map((name) => ({
          name,
          method: name === 'content_hash' ? '' : method,
        })),
      );
      // Rows wider than 2 kB are compressed: a sparse vector, which compresses, comes back exact.
      const embedding = Array.from({ length: 1_536 }, (_, i) => (i % 97 === 0 ? i / 1_536 : 0));
      await store.upsert('compressed', [{ id: 'sparse', content: 'sparse', embedding }]);
      const [stored] = await subject.sql.query<{ size: number }>(
        `SELECT pg_column_size(embedding) AS size FROM "${subject.schema}".compressed`,
      );
      expect(stored!.size).toBeLessThan(1_536);
      const [hit] = await store.query('compressed', { vector: embedding, topK: 1 });
      expect(hit).toMatchObject({ id: 'sparse' });
      expect(hit!.score).toBeCloseTo(1, 5);
    });
  });
}

// The embedded database converts half floats in software: it sketches in full precision.
describeSketches('PGlite', pgliteSubject, { vectorIndex: 'vector' }, false);

describe.skipIf(Boolean(vectorUnavailable))(
  `PostgreSQL with pgvector${vectorUnavailable ? ` (skipped: ${vectorUnavailable})` : ''}`,
  () => {
    describeSketches('PostgreSQL', () => postgresSubject('kb_sketch'), {}, true);
  },
);
