import type { MeterScope, ModelTarget } from '@atelier/metering';
import type { QueryCollectionAnswer, QueryCollectionBody, RetrievedChunk } from '@atelier/schemas';
import type { ModelCalls } from '../service/models';
import type { CollectionRecord } from '../service/records';
import {
  KnowledgeError,
  type MetadataFilter,
  type ScoredChunk,
  type VectorStore,
} from '../stores/vector-store';
import { reciprocalRankFusion } from './fuse';

/** Candidates fetched per result when they are fused or reranked afterwards. */
const OVERFETCH = 4;
const MIN_CANDIDATES = 20;
const MAX_CANDIDATES = 200;

export interface QueryContext {
  calls: ModelCalls;
  storeFor: (connector: CollectionRecord['connector']) => Promise<VectorStore>;
}

/** Where a chunk came from, by the chunk metadata convention (document fields null for foreign chunks). */
function sourceOf(collectionId: string, metadata: Record<string, unknown>): RetrievedChunk['source'] {
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const index = metadata.chunk_index;
  return {
    collection_id: collectionId,
    document_id: str(metadata.document_id),
    filename: str(metadata.filename),
    chunk_index: typeof index === 'number' && Number.isInteger(index) ? index : null,
  };
}

/**
 * Top-k retrieval from one collection: the query embedded with the collection's model (metered; a
 * question asked lately comes from the recent questions' cache), the store's vector top-k with the
 * metadata filter; hybrid adds its full-text search, fused by reciprocal rank (scores then 0..1, 1 = first in both); rerank orders the candidates with the rerank model
 * (scores then the model's); the score threshold applies to the final score.
 */
export async function queryCollection(
  ctx: QueryContext,
  scope: MeterScope,
  collection: CollectionRecord,
  body: QueryCollectionBody,
  signal?: AbortSignal,
  embeddings?: ModelTarget | null,
): Promise<QueryCollectionAnswer> {
  const started = performance.now();
  const topK = body.top_k ?? collection.topK;
  const hybrid = body.hybrid ?? collection.hybrid;
  const rerank = body.rerank ?? collection.rerankModelId !== null;
  const threshold = body.score_threshold !== undefined ? body.score_threshold : collection.scoreThreshold;
  if (rerank && !collection.rerankModelId) {
    throw new KnowledgeError(
      422,
      'rerank_model_missing',
      'The collection has no rerank model; choose one first.',
    );
  }
  if (!collection.embeddingsModelId) {
    throw new KnowledgeError(
      409,
      'embeddings_model_missing',
      'The collection has no embeddings model any more; choose one in its settings.',
    );
  }
  const answer = (documents: ScoredChunk[]): QueryCollectionAnswer => ({
    documents: documents.map((c) => ({
      id: c.id,
      content: c.content,
      score: c.score,
      metadata: c.metadata,
      source: sourceOf(collection.id, c.metadata),
    })),
    took_ms: Math.round((performance.now() - started) * 100) / 100,
    reranked: rerank,
    hybrid,
  });
  // Nothing was ever stored in a collection whose dimension is still unknown.
  if (collection.dimension === null) return answer([]);

  const filter = body.filter as MetadataFilter | undefined;
  const candidates =
    hybrid || rerank ? Math.min(MAX_CANDIDATES, Math.max(MIN_CANDIDATES, topK * OVERFETCH)) : topK;
  const store = await ctx.storeFor(collection.connector);
  const name = collection.collectionName;
  // Full-text search needs no vector, and the vector search starts as soon as the provider answers,
  // while the embedding call is being recorded (metering): the answer waits for both.
  const byText = hybrid
    ? store.textSearch(name, { query: body.query, topK: candidates, filter })
    : Promise.resolve([]);
  let byVector: Promise<ScoredChunk[]> | undefined;
  byText.catch(() => undefined);
  // The model as the caller read it with the collection (the same one, of this workspace), else its id.
  const model =
    embeddings?.model.id === collection.embeddingsModelId ? embeddings : collection.embeddingsModelId;
  await ctx.calls.embedQuery(scope, model, body.query, signal, (vector) => {
    byVector = store.query(name, { vector, topK: candidates, filter });
    byVector.catch(() => undefined);
  });
  const [vectorHits, textHits] = await Promise.all([byVector!, byText]);
  let ranked = hybrid ? reciprocalRankFusion([vectorHits, textHits]) : vectorHits;
  if (rerank && ranked.length > 0) {
    const order = await ctx.calls.rerank(
      scope,
      collection.rerankModelId!,
      body.query,
      ranked.map((c) => c.content),
      topK,
      signal,
    );
    ranked = order.map((r) => ({ ...ranked[r.index]!, score: r.score }));
  }
  const kept =
    threshold === null || threshold === undefined ? ranked : ranked.filter((c) => c.score >= threshold);
  return answer(kept.slice(0, topK));
}
