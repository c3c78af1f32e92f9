import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KnowledgeError,
  type ChunkInput,
  type MetadataFilter,
  type StoredChunk,
  seeded,
  type VectorStore,
} from '../src';

export interface StoreUnderTest {
  store: VectorStore;
  cleanup(): Promise<void>;
}

/** A seeded generator (mulberry32): the same vectors on every run. */
export { seeded };

export function randomVector(random: () => number, dimension: number): number[] {
  return Array.from({ length: dimension }, () => random() * 2 - 1);
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  });
  return dot / Math.sqrt(na * nb);
}

export async function expectKnowledgeError(
  promise: Promise<unknown>,
  status: number,
  code?: string,
): Promise<KnowledgeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KnowledgeError);
  const known = error as KnowledgeError;
  expect(known.status).toBe(status);
  if (code) expect(known.code).toBe(code);
  return known;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const ids = (chunks: { id: string }[]) => chunks.map((chunk) => chunk.id).sort();

/** Where store kinds differ by design; the contract checks each kind against what it declares. */
export interface StoreCapabilities {
  /** `preview` pages in chunk-id order (SQL stores); otherwise in a stable order of the store's own (Qdrant: point ids). */
  previewInIdOrder: boolean;
  /**
   * Names the store accepts for existing collections beyond its own naming rule (Qdrant: mixed case,
   * leading digits): reads and writes on such a name answer 404 when absent, not 422. Creation still
   * follows the store's rule.
   */
  foreignNames?: RegExp;
  /** The largest dimension a collection may have. */
  maxDimension: number;
}

const SQL_STORE: StoreCapabilities = { previewInIdOrder: true, maxDimension: 16_000 };

/** Every chunk of a collection, through `preview` pages. */
async function everything(store: VectorStore, name: string) {
  const all = [];
  for (let offset = 0; ; offset += 100) {
    const page = await store.preview(name, { limit: 100, offset });
    all.push(...page);
    if (page.length < 100) return all;
  }
}

/** The behaviour every `VectorStore` kind must show; `makeStore` gives a store on an empty, private namespace. */
export function describeStoreContract(
  name: string,
  makeStore: () => Promise<StoreUnderTest>,
  capabilities: StoreCapabilities = SQL_STORE,
): void {
  describe(`VectorStore contract: ${name}`, () => {
    let subject: StoreUnderTest;
    let store: VectorStore;
    beforeAll(async () => {
      subject = await makeStore();
      store = subject.store;
    });
    afterAll(async () => {
      await subject?.cleanup();
    });

    it('creates, lists, describes and refuses a second collection of the same name or a bad shape', async () => {
      const created = await store.createCollection({ name: 'basics', dimension: 3, distance: 'cosine' });
      expect(created).toMatchObject({ name: 'basics', dimension: 3, distance: 'cosine', writable: true });
      expect((await store.listCollections()).map((c) => c.name)).toContain('basics');
      expect(await store.collectionInfo('basics')).toEqual({
        name: 'basics',
        dimension: 3,
        distance: 'cosine',
        writable: true,
        count: 0,
        metadataKeys: [],
      });
      await expectKnowledgeError(
        store.createCollection({ name: 'basics', dimension: 3 }),
        409,
        'collection_exists',
      );
      await expectKnowledgeError(
        store.createCollection({ name: 'zero', dimension: 0 }),
        422,
        'invalid_dimension',
      );
      await expectKnowledgeError(
        store.createCollection({ name: 'huge', dimension: capabilities.maxDimension + 1 }),
        422,
        'invalid_dimension',
      );
      await expectKnowledgeError(store.collectionInfo('absent'), 404, 'collection_not_found');
      await expectKnowledgeError(
        store.upsert('basics', [{ id: 'a', content: 'x', embedding: [1, 2] }]),
        422,
        'dimension_mismatch',
      );
      await expectKnowledgeError(store.query('basics', { vector: [1, 2, 3], topK: 0 }), 422, 'invalid_top_k');
    });

    it('refuses hostile or malformed collection names with 422 and leaves other tables alone', async () => {
      await store.createCollection({ name: 'victim', dimension: 2 });
      await store.upsert('victim', [{ id: 'v1', content: 'still here', embedding: [1, 0] }]);
      const hostile = [
        'x; drop table y',
        'x; DROP TABLE kb.victim; --',
        'a"b',
        'x"; drop table "victim',
        "o'brien",
        'Upper',
        '1leading_digit',
        '',
        'a'.repeat(49),
        'pg_catalog.pg_class',
        '../etc',
      ];
      for (const bad of hostile) {
        await expectKnowledgeError(
          store.createCollection({ name: bad, dimension: 2 }),
          422,
          'invalid_collection_name',
        );
        const status = capabilities.foreignNames?.test(bad) ? 404 : 422;
        await expectKnowledgeError(store.query(bad, { vector: [1, 0], topK: 1 }), status);
        await expectKnowledgeError(store.upsert(bad, [{ id: 'z', content: 'z', embedding: [1, 0] }]), status);
        await expectKnowledgeError(store.dropCollection(bad), status);
      }
      expect((await store.collectionInfo('victim')).count).toBe(1);
      expect((await store.preview('victim')).map((c) => c.content)).toEqual(['still here']);
    });

    it('upserts in several batches, replaces on re-upsert without duplicates, and hashes content', async () => {
      await store.createCollection({ name: 'bulk', dimension: 8 });
      const random = seeded(7);
      const chunks: ChunkInput[] = Array.from({ length: 1_234 }, (_, i) => ({
        id: `doc-${String(i).padStart(5, '0')}`,
        content: `chunk number ${i}`,
        embedding: randomVector(random, 8),
        metadata: { i, part: i % 2 === 0 ? 'even' : 'odd' },
      }));
      expect(await store.upsert('bulk', chunks)).toBe(1_234);
      expect((await store.collectionInfo('bulk')).count).toBe(1_234);

      const replaced = chunks
        .slice(100, 700)
        .map((chunk) => ({ ...chunk, content: `${chunk.content}, revised` }));
      // The same id twice in one call: the later one wins.
      replaced.push(
        { ...chunks[5]!, content: 'first' },
        { ...chunks[5]!, content: 'second', metadata: { last: true } },
      );
      expect(await store.upsert('bulk', replaced)).toBe(601);
      const info = await store.collectionInfo('bulk');
      expect(info.count).toBe(1_234);
      expect(info.metadataKeys).toEqual(['i', 'last', 'part']);

      let page: StoredChunk[];
      let fifth: StoredChunk | undefined;
      if (capabilities.previewInIdOrder) {
        page = await store.preview('bulk', { limit: 10, offset: 100 });
        expect(page.map((c) => c.id)).toEqual(chunks.slice(100, 110).map((c) => c.id));
        [fifth] = await store.preview('bulk', { limit: 1, offset: 5 });
      } else {
        const all = new Map((await everything(store, 'bulk')).map((chunk) => [chunk.id, chunk]));
        expect(all.size).toBe(1_234);
        page = chunks.slice(100, 110).map((chunk) => all.get(chunk.id)!);
        fifth = all.get('doc-00005');
      }
      for (const chunk of page) {
        expect(chunk.content).toMatch(/, revised$/);
        expect(chunk.contentHash).toBe(sha256(chunk.content));
      }
      expect(fifth).toEqual({
        id: 'doc-00005',
        content: 'second',
        contentHash: sha256('second'),
        metadata: { last: true },
      });
    });

    it('answers top-k in the order of exact cosine similarity, with score = 1 - cosine distance', async () => {
      const dimension = 16;
      await store.createCollection({ name: 'ranked', dimension, distance: 'cosine' });
      const random = seeded(42);
      const chunks = Array.from({ length: 300 }, (_, i) => ({
        id: `r${i}`,
        content: `ranked ${i}`,
        embedding: randomVector(random, dimension),
      }));
      await store.upsert('ranked', chunks);
      for (let q = 0; q < 5; q++) {
        const vector = randomVector(random, dimension);
        const exact = chunks
          .map((chunk) => ({ id: chunk.id, similarity: cosine(vector, chunk.embedding) }))
          .sort((a, b) => b.similarity - a.similarity)
          .slice(0, 7);
        const result = await store.query('ranked', { vector, topK: 7 });
        expect(result.map((r) => r.id)).toEqual(exact.map((e) => e.id));
        result.forEach((r, i) => expect(r.score).toBeCloseTo(exact[i]!.similarity, 5));
      }
    });

    describe('metadata filters', () => {
      const docs: ChunkInput[] = [
        {
          id: 'd1',
          content: 'the quick brown fox',
          embedding: [1, 0, 0],
          metadata: { source: 'wiki', n: 1, tags: ['a', 'b'], date: '2024-01-05', author: { name: 'ann' } },
        },
        {
          id: 'd2',
          content: 'a lazy dog sleeps',
          embedding: [0, 1, 0],
          metadata: { source: 'wiki', n: 5, tags: ['b'], date: '2024-03-01', author: { name: 'bob' } },
        },
        {
          id: 'd3',
          content: 'quick thinking fox',
          embedding: [0, 0, 1],
          metadata: { source: 'blog', n: 10, tags: ['c'], date: '2023-12-31', title: 'Fox news' },
        },
        {
          id: 'd4',
          content: 'foxes are quick',
          embedding: [1, 1, 0],
          metadata: { source: 'mail', n: 20, title: 'Re: foxes' },
        },
        {
          id: 'd5',
          content: 'nothing to see',
          embedding: [0, 1, 1],
          metadata: { source: "o'reilly; drop table x", n: 'many' },
        },
      ];
      const matching = async (filter: MetadataFilter) =>
        ids(await store.query('filtered', { vector: [1, 1, 1], topK: 10, filter }));

      beforeAll(async () => {
        await store.createCollection({ name: 'filtered', dimension: 3 });
        await store.upsert('filtered', docs);
      });

      it.each<[string, MetadataFilter, string[]]>([
        ['eq on a string', { field: 'source', op: 'eq', value: 'wiki' }, ['d1', 'd2']],
        ['eq on a number', { field: 'n', op: 'eq', value: 5 }, ['d2']],
        ['eq on a nested path', { field: 'author.name', op: 'eq', value: 'bob' }, ['d2']],
        [
          'eq with quotes and SQL in the value (a parameter, not text)',
          { field: 'source', op: 'eq', value: "o'reilly; drop table x" },
          ['d5'],
        ],
        [
          'ne (missing fields count as different)',
          { field: 'source', op: 'ne', value: 'wiki' },
          ['d3', 'd4', 'd5'],
        ],
        ['in', { field: 'source', op: 'in', value: ['blog', 'mail'] }, ['d3', 'd4']],
        ['gt on numbers (non-numbers never match)', { field: 'n', op: 'gt', value: 5 }, ['d3', 'd4']],
        ['gte', { field: 'n', op: 'gte', value: 5 }, ['d2', 'd3', 'd4']],
        ['lt', { field: 'n', op: 'lt', value: 5 }, ['d1']],
        ['lte on ISO dates as strings', { field: 'date', op: 'lte', value: '2024-01-05' }, ['d1', 'd3']],
        ['contains an array element', { field: 'tags', op: 'contains', value: 'b' }, ['d1', 'd2']],
        ['contains a substring', { field: 'title', op: 'contains', value: 'oxes' }, ['d4']],
        [
          'a field name with quotes matches nothing',
          { field: "source' or 1=1 --", op: 'ne', value: 'x' },
          ['d1', 'd2', 'd3', 'd4', 'd5'],
        ],
        [
          'and',
          {
            and: [
              { field: 'source', op: 'eq', value: 'wiki' },
              { field: 'n', op: 'gt', value: 2 },
            ],
          },
          ['d2'],
        ],
        [
          'or',
          {
            or: [
              { field: 'source', op: 'eq', value: 'blog' },
              { field: 'tags', op: 'contains', value: 'a' },
            ],
          },
          ['d1', 'd3'],
        ],
        [
          'nested and/or',
          {
            and: [
              {
                or: [
                  { field: 'source', op: 'eq', value: 'wiki' },
                  { field: 'source', op: 'eq', value: 'mail' },
                ],
              },
              { field: 'n', op: 'gte', value: 5 },
            ],
          },
          ['d2', 'd4'],
        ],
      ])('%s', async (_label, filter, expected) => {
        expect(await matching(filter)).toEqual(expected);
      });

      it('refuses malformed filters with 422', async () => {
        const bad = [
          { field: 'source', op: 'regex', value: '.*' },
          { field: 'source', op: 'in', value: [] },
          { field: 'source', op: 'gt', value: true },
          { and: [] },
          { and: [{ field: 'source', op: 'eq', value: 'a' }], or: [] },
          { field: '', op: 'eq', value: 1 },
          { op: 'eq', value: 1 },
        ];
        for (const filter of bad) {
          await expectKnowledgeError(
            store.query('filtered', { vector: [1, 1, 1], topK: 3, filter: filter as MetadataFilter }),
            422,
            'invalid_filter',
          );
        }
      });

      it('searches full text with ranking and filters', async () => {
        // Any of the keywords: chunks holding more of them first.
        const fox = await store.textSearch('filtered', { query: 'quick fox', topK: 10 });
        expect(ids(fox.slice(0, 2)).sort()).toEqual(['d1', 'd3']);
        expect(ids(fox.slice(2))).toEqual(['d4']);
        fox.forEach((hit) => expect(hit.score).toBeGreaterThan(0));
        expect(fox[1]!.score).toBeGreaterThan(fox[2]!.score);
        // A question's stopwords are not required; a chunk holding one rare word of it is found.
        const question = await store.textSearch('filtered', { query: 'Where is the lazy dog?', topK: 10 });
        expect(ids(question)).toEqual(['d2']);
        expect(ids(await store.textSearch('filtered', { query: 'Is there a dog?', topK: 10 }))).toEqual([
          'd2',
        ]);
        // A quoted term is required, a -word excluded.
        const quoted = await store.textSearch('filtered', { query: 'Is the "fox" quick?', topK: 10 });
        expect(ids(quoted).sort()).toEqual(['d1', 'd3']);
        expect(ids(await store.textSearch('filtered', { query: 'quick -fox', topK: 10 }))).toEqual(['d4']);
        const quick = await store.textSearch('filtered', {
          query: 'quick',
          topK: 10,
          filter: { field: 'source', op: 'ne', value: 'wiki' },
        });
        expect(ids(quick)).toEqual(['d3', 'd4']);
        expect(await store.textSearch('filtered', { query: 'zebra', topK: 5 })).toEqual([]);
        await expectKnowledgeError(
          store.textSearch('filtered', { query: '  ', topK: 5 }),
          422,
          'invalid_query',
        );
      });
    });

    it('returns topK when a filter matches 1,000 of 3,000 chunks, and all matches when a filter is rarer than topK', async () => {
      const dimension = 8;
      await store.createCollection({ name: 'crowd', dimension });
      const random = seeded(2024);
      const chunks = Array.from({ length: 3_000 }, (_, i) => ({
        id: `c${i}`,
        content: `crowd ${i}`,
        embedding: randomVector(random, dimension),
        metadata: { bucket: i % 3, rare: i % 600 === 7 },
      }));
      await store.upsert('crowd', chunks);
      const vector = randomVector(random, dimension);
      const result = await store.query('crowd', {
        vector,
        topK: 10,
        filter: { field: 'bucket', op: 'eq', value: 1 },
      });
      expect(result).toHaveLength(10);
      for (const hit of result) expect(hit.metadata.bucket).toBe(1);
      for (let i = 1; i < result.length; i++)
        expect(result[i - 1]!.score).toBeGreaterThanOrEqual(result[i]!.score);

      const rare = await store.query('crowd', {
        vector,
        topK: 10,
        filter: { field: 'rare', op: 'eq', value: true },
      });
      expect(ids(rare)).toEqual(['c1207', 'c1807', 'c2407', 'c607', 'c7']);
    });

    it('deletes by ids and by metadata condition', async () => {
      await store.createCollection({ name: 'pruned', dimension: 2 });
      await store.upsert(
        'pruned',
        Array.from({ length: 10 }, (_, i) => ({
          id: `p${i}`,
          content: `p ${i}`,
          embedding: [1, i],
          metadata: { keep: i < 5 },
        })),
      );
      expect(await store.deleteByIds('pruned', ['p0', 'p1', 'absent'])).toBe(2);
      expect(await store.deleteWhere('pruned', { field: 'keep', op: 'eq', value: false })).toBe(5);
      expect(ids(await store.preview('pruned', { limit: 100 }))).toEqual(['p2', 'p3', 'p4']);
      expect(await store.deleteByIds('pruned', [])).toBe(0);
    });

    it("changes the metadata of a filter's chunks in place: fields set and removed, others and vectors kept", async () => {
      await store.createCollection({ name: 'tagged', dimension: 2 });
      await store.upsert(
        'tagged',
        Array.from({ length: 6 }, (_, i) => ({
          id: `t${i}`,
          content: `t ${i}`,
          embedding: [1, i],
          metadata: { document_id: i < 4 ? 'd1' : 'd2', chunk_index: i, 'old field': 'x', year: 2020 },
        })),
      );
      const before = await store.query('tagged', { vector: [1, 3], topK: 6 });
      const change = {
        set: { department: 'HR', year: 2024, 'cost center': 'Paris 2' },
        unset: ['old field'],
      };
      expect(
        await store.updateMetadata('tagged', { field: 'document_id', op: 'eq', value: 'd1' }, change),
      ).toBe(4);
      const rows = new Map((await store.preview('tagged', { limit: 100 })).map((c) => [c.id, c]));
      expect(rows.get('t0')!.metadata).toEqual({
        document_id: 'd1',
        chunk_index: 0,
        year: 2024,
        department: 'HR',
        'cost center': 'Paris 2',
      });
      expect(rows.get('t5')!.metadata).toEqual({
        document_id: 'd2',
        chunk_index: 5,
        'old field': 'x',
        year: 2020,
      });
      expect(rows.get('t0')!.contentHash).toBe(before.find((c) => c.id === 't0')!.contentHash);
      // The new fields filter at once; the search itself is unchanged.
      const hr = await store.query('tagged', {
        vector: [1, 3],
        topK: 6,
        filter: {
          and: [
            { field: 'department', op: 'eq', value: 'HR' },
            { field: 'year', op: 'gte', value: 2024 },
          ],
        },
      });
      expect(ids(hr)).toEqual(['t0', 't1', 't2', 't3']);
      const after = await store.query('tagged', { vector: [1, 3], topK: 6 });
      expect(after.map((c) => [c.id, c.score.toFixed(6)])).toEqual(
        before.map((c) => [c.id, c.score.toFixed(6)]),
      );
      expect(
        await store.updateMetadata('tagged', { field: 'document_id', op: 'eq', value: 'none' }, change),
      ).toBe(0);
      // Asked again, nothing changes (a store that can tell counts no chunk).
      const again = await store.updateMetadata(
        'tagged',
        { field: 'document_id', op: 'eq', value: 'd1' },
        change,
      );
      expect([0, 4]).toContain(again);
      expect((await store.preview('tagged', { limit: 100 })).find((c) => c.id === 't0')!.metadata).toEqual(
        rows.get('t0')!.metadata,
      );
      await expectKnowledgeError(
        store.updateMetadata('absent', { field: 'document_id', op: 'eq', value: 'd1' }, change),
        404,
        'collection_not_found',
      );
    });

    it(`pages the preview in ${capabilities.previewInIdOrder ? 'id order' : 'a stable order covering every chunk once'}`, async () => {
      await store.createCollection({ name: 'paged', dimension: 2 });
      await store.upsert(
        'paged',
        ['e', 'c', 'a', 'd', 'b'].map((id) => ({ id, content: id, embedding: [1, 0] })),
      );
      const pages = [
        (await store.preview('paged', { limit: 2 })).map((c) => c.id),
        (await store.preview('paged', { limit: 2, offset: 2 })).map((c) => c.id),
        (await store.preview('paged', { limit: 2, offset: 4 })).map((c) => c.id),
      ];
      const whole = (await store.preview('paged')).map((c) => c.id);
      expect(whole.length).toBe(5);
      expect(pages.flat()).toEqual(whole);
      if (capabilities.previewInIdOrder) expect(pages).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
      else expect([...whole].sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
      await expectKnowledgeError(store.preview('paged', { limit: 0 }), 422, 'invalid_page');
    });

    it('drops a collection', async () => {
      await store.createCollection({ name: 'doomed', dimension: 2 });
      await store.dropCollection('doomed');
      expect((await store.listCollections()).map((c) => c.name)).not.toContain('doomed');
      await expectKnowledgeError(store.collectionInfo('doomed'), 404, 'collection_not_found');
      await expectKnowledgeError(store.dropCollection('doomed'), 404, 'collection_not_found');
      // The name is free again.
      await store.createCollection({ name: 'doomed', dimension: 4 });
      expect((await store.collectionInfo('doomed')).dimension).toBe(4);
    });
  });
}
