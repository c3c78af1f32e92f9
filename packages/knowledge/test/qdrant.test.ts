import { startFakeQdrant, type FakeQdrant } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileQdrantFilter,
  createQdrantStore,
  pointId,
  QDRANT_COLLECTION_NAME,
  QDRANT_MAX_DIMENSION,
  type QdrantStore,
} from '../src';
import { describeStoreContract, expectKnowledgeError } from './store-contract';

const API_KEY = 'qdrant-test-key';
const policy = { mode: 'any' as const };

describeStoreContract(
  'Qdrant (fake server)',
  async () => {
    const fake = await startFakeQdrant({ apiKey: API_KEY });
    return {
      store: createQdrantStore({ url: fake.url, apiKey: API_KEY, urlPolicy: policy, batchSize: 100 }),
      cleanup: () => fake.close(),
    };
  },
  { previewInIdOrder: false, foreignNames: QDRANT_COLLECTION_NAME, maxDimension: QDRANT_MAX_DIMENSION },
);

describe('Qdrant store specifics', () => {
  let fake: FakeQdrant;
  let store: QdrantStore;
  beforeAll(async () => {
    fake = await startFakeQdrant({ apiKey: API_KEY });
    store = createQdrantStore({ url: `${fake.url}/`, apiKey: API_KEY, urlPolicy: policy });
  });
  afterAll(() => fake.close());

  it('maps chunk ids to stable UUIDv5 point ids and keeps the chunk in the payload', async () => {
    expect(pointId('doc:1')).toBe(pointId('doc:1'));
    expect(pointId('doc:1')).not.toBe(pointId('doc:2'));
    expect(pointId('doc:1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await store.createCollection({ name: 'layout', dimension: 2 });
    await store.upsert('layout', [{ id: 'doc:1', content: 'hello', embedding: [1, 0], metadata: { a: 1 } }]);
    const point = fake.collections.get('layout')!.points.get(`u:${pointId('doc:1')}`)!;
    expect(point.payload).toEqual({
      id: 'doc:1',
      content: 'hello',
      content_hash: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
      metadata: { a: 1 },
    });
    expect([...fake.collections.get('layout')!.indexes.keys()]).toEqual(['content', 'metadata.document_id']);
    const last = fake.requests.at(-1)!;
    expect(last.headers['api-key']).toBe(API_KEY);
    expect(last.path).toBe('/collections/layout/points?wait=true');
  });

  it('scores l2 as minus the distance and inner product as the product', async () => {
    await store.createCollection({ name: 'euclid', dimension: 2, distance: 'l2' });
    await store.createCollection({ name: 'dot', dimension: 2, distance: 'inner_product' });
    const chunks = [
      { id: 'near', content: 'n', embedding: [1, 1] },
      { id: 'far', content: 'f', embedding: [4, 6] },
    ];
    await store.upsert('euclid', chunks);
    await store.upsert('dot', chunks);
    const byL2 = await store.query('euclid', { vector: [1, 2], topK: 2 });
    expect(byL2.map((c) => [c.id, c.score])).toEqual([
      ['near', -1],
      ['far', -5],
    ]);
    const byDot = await store.query('dot', { vector: [1, 2], topK: 2 });
    expect(byDot.map((c) => [c.id, c.score])).toEqual([
      ['far', 16],
      ['near', 3],
    ]);
    expect(await store.collectionInfo('euclid')).toMatchObject({ distance: 'l2', count: 2 });
  });

  it('reads collections written by other tools: named vectors, mixed-case names, LangChain payloads', async () => {
    fake.collections.set('LangChain-Docs', {
      vectors: { dense: { size: 2, distance: 'Cosine' } },
      named: true,
      indexes: new Map(),
      points: new Map([
        [
          'n:00000000000000000007',
          { id: 7, vectors: { dense: [1, 0] }, payload: { page_content: 'seven', metadata: { s: 'x' } } },
        ],
      ]),
    });
    expect((await store.listCollections()).find((c) => c.name === 'LangChain-Docs')).toEqual({
      name: 'LangChain-Docs',
      dimension: 2,
      distance: 'cosine',
      writable: true,
    });
    const [hit] = await store.query('LangChain-Docs', {
      vector: [1, 0],
      topK: 1,
      filter: { field: 's', op: 'eq', value: 'x' },
    });
    expect(hit).toMatchObject({ id: '7', content: 'seven', metadata: { s: 'x' }, score: 1 });
    await store.upsert('LangChain-Docs', [{ id: 'mine', content: 'mine', embedding: [0, 1] }]);
    expect(fake.collections.get('LangChain-Docs')!.points.get(`u:${pointId('mine')}`)!.vectors).toEqual({
      dense: [0, 1],
    });
  });

  it('compiles filters to Qdrant conditions on metadata paths', () => {
    expect(
      compileQdrantFilter({
        or: [
          { field: 'author.name', op: 'eq', value: 'ann' },
          { field: "odd key'", op: 'ne', value: 1.5 },
          { field: 'n', op: 'in', value: [1, 'a'] },
          { field: 'date', op: 'gte', value: '2024-01-05' },
        ],
      }),
    ).toEqual({
      should: [
        { key: 'metadata.author.name', match: { value: 'ann' } },
        { must_not: [{ key: `metadata."odd key'"`, range: { gte: 1.5, lte: 1.5 } }] },
        {
          should: [
            { key: 'metadata.n', match: { value: 1 } },
            { key: 'metadata.n', match: { value: 'a' } },
          ],
        },
        { key: 'metadata.date', range: { gte: '2024-01-05' } },
      ],
    });
    expect(compileQdrantFilter({ field: 'tags', op: 'in', value: ['a', 'b'] })).toEqual({
      must: [{ key: 'metadata.tags', match: { any: ['a', 'b'] } }],
    });
    for (const filter of [
      { field: 'name', op: 'gt', value: 'bob' },
      { field: 'a"b', op: 'eq', value: 1 },
      { field: 'obj', op: 'eq', value: { a: 1 } },
    ] as const) {
      expect(() => compileQdrantFilter(filter)).toThrow(
        expect.objectContaining({ status: 422, code: 'invalid_filter' }),
      );
    }
  });

  it('maps Qdrant failures: bad key to 502 connector_auth_failed, 5xx and network errors to 502 connector_unreachable', async () => {
    const wrongKey = createQdrantStore({ url: fake.url, apiKey: 'nope', urlPolicy: policy });
    await expectKnowledgeError(wrongKey.listCollections(), 502, 'connector_auth_failed');
    fake.failNext(503, 'Service unavailable: overloaded');
    const error = await expectKnowledgeError(store.listCollections(), 502, 'connector_unreachable');
    expect(error.detail).toContain('overloaded');
    fake.failNext(400, 'Wrong input: nonsense');
    await expectKnowledgeError(store.collectionInfo('layout'), 422, 'invalid_request');

    const closed = await startFakeQdrant();
    const url = closed.url;
    await closed.close();
    const gone = createQdrantStore({ url, urlPolicy: policy, timeoutMs: 2_000 });
    const down = await expectKnowledgeError(gone.listCollections(), 502, 'connector_unreachable');
    expect(down.detail).toMatch(/ECONNREFUSED|failed/);
  });

  it('sends every request through the SSRF guard', async () => {
    const guarded = createQdrantStore({ url: fake.url, apiKey: API_KEY, urlPolicy: { mode: 'public-only' } });
    const before = fake.requests.length;
    await expectKnowledgeError(guarded.listCollections(), 422);
    expect(fake.requests.length).toBe(before);
    await expectKnowledgeError(
      Promise.resolve().then(() => createQdrantStore({ url: 'ftp://x', urlPolicy: policy })),
      422,
      'invalid_url',
    );
  });
});
