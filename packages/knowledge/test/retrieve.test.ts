import type { ModelTarget } from '@atelier/metering';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reciprocalRankFusion, type ScoredChunk } from '../src/index';
import { createQueryEmbeddingCache } from '../src/service/query-embeddings';
import {
  addCollection,
  embeddingCalls,
  logRows,
  queueDocument,
  settled,
  startEnv,
  type Env,
} from './ingest-env';
import { rejection } from './rejection';

let env: Env;
let other: Env;
let collectionId = '';

const DOCS: Record<string, string> = {
  'printers.txt':
    'The office printer on floor two jams when the paper tray is overfilled. Error code PX-4471.',
  'badges.txt': 'Visitor badges are printed at the front desk and must be returned when leaving the office.',
  'holidays.txt':
    'Employees get twenty five days of paid holiday, booked in the holiday planner before March.',
  'parking.txt': 'The parking garage opens at seven; electric cars charge on level minus one.',
  'coffee.txt': 'The coffee machine in the kitchen is descaled every Friday by the facilities team.',
};

beforeAll(async () => {
  env = await startEnv('Retrieval test org');
  other = await startEnv('Retrieval other org');
  env.knowledge.startIngestionWorker({ concurrency: 2 });
  const { id } = await addCollection(env, {
    chunkSize: 500,
    chunkOverlap: 0,
    rerankModelId: env.models.rerank,
  });
  collectionId = id;
  const ids = [];
  for (const [file, text] of Object.entries(DOCS)) ids.push(await queueDocument(env, id, file, { text }));
  for (const docId of ids) expect(await settled(env, docId)).toMatchObject({ status: 'ready' });
});
afterAll(async () => {
  await env?.close();
  await other?.close();
});

describe('collection queries', () => {
  it('answers the top-k with sources and scores, one metered embedding call per query', async () => {
    const before = await logRows(env, env.models.embed);
    const answer = await env.knowledge.query(env.scope, collectionId, {
      query: 'the printer paper tray jams',
      top_k: 2,
      rerank: false,
    });
    expect(await logRows(env, env.models.embed)).toBe(before + 1);
    expect(answer).toMatchObject({ reranked: false, hybrid: false });
    expect(answer.documents).toHaveLength(2);
    const [best] = answer.documents;
    expect(best!.source).toMatchObject({
      collection_id: collectionId,
      filename: 'printers.txt',
      chunk_index: 0,
    });
    expect(best!.score).toBeGreaterThan(answer.documents[1]!.score);
    expect(answer.took_ms).toBeGreaterThan(0);
  });

  it('applies the metadata filter and the score threshold', async () => {
    const filtered = await env.knowledge.query(env.scope, collectionId, {
      query: 'the printer paper tray jams',
      top_k: 5,
      rerank: false,
      filter: { field: 'filename', op: 'in', value: ['coffee.txt', 'parking.txt'] },
    });
    expect(filtered.documents.map((d) => d.source.filename).sort()).toEqual(['coffee.txt', 'parking.txt']);
    const strict = await env.knowledge.query(env.scope, collectionId, {
      query: 'the printer paper tray jams',
      top_k: 5,
      rerank: false,
      score_threshold: 0.3,
    });
    expect(strict.documents.length).toBeGreaterThan(0);
    expect(strict.documents.every((d) => d.score >= 0.3)).toBe(true);
    expect(strict.documents.length).toBeLessThan(5);
  });

  it('hybrid search fuses vector and full-text ranks (an exact code is found by its text)', async () => {
    const answer = await env.knowledge.query(env.scope, collectionId, {
      query: 'PX-4471',
      top_k: 3,
      hybrid: true,
      rerank: false,
    });
    expect(answer.hybrid).toBe(true);
    expect(answer.documents[0]!.source.filename).toBe('printers.txt');
    expect(answer.documents[0]!.score).toBeLessThanOrEqual(1);
  });

  it('reranks with the rerank model through a metered call (its scores become the scores)', async () => {
    const before = await logRows(env, env.models.rerank);
    const answer = await env.knowledge.query(env.scope, collectionId, {
      query: 'when is the coffee machine descaled',
      top_k: 2,
    });
    expect(answer.reranked).toBe(true);
    expect(await logRows(env, env.models.rerank)).toBe(before + 1);
    expect(answer.documents[0]!.source.filename).toBe('coffee.txt');
    // The fake rerank scores are the share of query words found in the passage.
    expect(answer.documents[0]!.score).toBeGreaterThan(0.5);
    expect(answer.documents[0]!.score).toBeLessThanOrEqual(1);
  });

  it('a question asked again is searched with its kept embedding: no second provider call, no second charge', async () => {
    const ask = (query: string) =>
      env.knowledge.query(env.scope, collectionId, { query, top_k: 2, rerank: false });
    const logs = () => logRows(env, env.models.embed);
    const [logsBefore, callsBefore] = [await logs(), embeddingCalls(env)];
    const first = await ask('where do visitors get their badges');
    const again = await ask('where do visitors get their badges');
    expect(again.documents).toEqual(first.documents);
    expect(again.documents[0]!.source.filename).toBe('badges.txt');
    expect([await logs(), embeddingCalls(env)]).toEqual([logsBefore + 1, callsBefore + 1]);
    // Another text is embedded; so is the same text once its model was saved again (a new updated_at).
    await ask('where do visitors get their badge');
    expect(embeddingCalls(env)).toBe(callsBefore + 2);
    await env.q('UPDATE models SET updated_at = now() WHERE id = $1', [env.models.embed]);
    await ask('where do visitors get their badges');
    expect([await logs(), embeddingCalls(env)]).toEqual([logsBefore + 3, callsBefore + 3]);
    // Another organization asking the same question of its own collection pays its own call.
    const theirs = await addCollection(other, { chunkSize: 500, chunkOverlap: 0 });
    const doc = await queueDocument(other, theirs.id, 'badges.txt', { text: DOCS['badges.txt']! });
    other.knowledge.startIngestionWorker({ concurrency: 1 });
    expect(await settled(other, doc)).toMatchObject({ status: 'ready' });
    const callsOfOther = embeddingCalls(other);
    await other.knowledge.query(other.scope, theirs.id, { query: 'where do visitors get their badges' });
    expect(embeddingCalls(other)).toBe(callsOfOther + 1);
  });

  it('refuses another organization’s collection, a malformed id and rerank without a model', async () => {
    expect(
      (await rejection(other.knowledge.query(other.scope, collectionId, { query: 'printer' }))).status,
    ).toBe(404);
    expect((await rejection(env.knowledge.query(env.scope, 'not-a-uuid', { query: 'printer' }))).status).toBe(
      404,
    );
    const bare = await addCollection(env, {});
    const noRerank = await rejection(env.knowledge.query(env.scope, bare.id, { query: 'x', rerank: true }));
    expect(noRerank.code).toBe('rerank_model_missing');
    // A collection nothing was stored in yet (dimension unknown) answers no documents.
    expect((await env.knowledge.query(env.scope, bare.id, { query: 'printer' })).documents).toEqual([]);
  });
});

describe('reciprocal rank fusion', () => {
  const chunk = (id: string): ScoredChunk => ({ id, content: id, contentHash: '', metadata: {}, score: 0 });
  it('ranks what both lists agree on first, normalised to 1 for first in both', () => {
    const fused = reciprocalRankFusion([
      [chunk('a'), chunk('b'), chunk('c')],
      [chunk('b'), chunk('a'), chunk('d')],
    ]);
    expect(fused.map((c) => c.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(reciprocalRankFusion([[chunk('x')], [chunk('x')]])[0]!.score).toBeCloseTo(1);
  });
});

describe("the recent questions' embeddings", () => {
  const target = (id: string, updated = 0) =>
    ({
      model: { id, updatedAt: new Date(updated) },
      provider: { updatedAt: new Date(0) },
    }) as unknown as ModelTarget;

  it('keeps a vector by model and text, for its time only', async () => {
    const cache = createQueryEmbeddingCache({ ttlMs: 40 });
    cache.set(target('m1'), 'opening hours?', [1, 2, 3]);
    expect(cache.get(target('m1'), 'opening hours?')).toEqual([1, 2, 3]);
    expect(cache.get(target('m2'), 'opening hours?')).toBeUndefined();
    expect(cache.get(target('m1', 5), 'opening hours?')).toBeUndefined();
    expect(cache.get(target('m1'), 'Opening hours?')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(cache.get(target('m1'), 'opening hours?')).toBeUndefined();
  });

  it('holds at most its numbers: the least recently asked go first', () => {
    const cache = createQueryEmbeddingCache({ maxNumbers: 10 });
    const vector = (n: number) => Array.from({ length: 4 }, () => n);
    cache.set(target('m'), 'a', vector(1));
    cache.set(target('m'), 'b', vector(2));
    expect(cache.get(target('m'), 'a')).toEqual(vector(1));
    cache.set(target('m'), 'c', vector(3));
    expect(cache.get(target('m'), 'b')).toBeUndefined();
    expect(cache.get(target('m'), 'a')).toEqual(vector(1));
    expect(cache.get(target('m'), 'c')).toEqual(vector(3));
  });
});
