import { createHash } from 'node:crypto';
import type { KnowledgeServices, StoreTarget } from '@atelier/engine';
import type { MeterScope } from '@atelier/metering';
import type { FlowDocument } from '@atelier/schemas';
import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import type { KnowledgeDeps } from '../facade';
import { searchesFor } from '../retrieve/follow-up';
import { reciprocalRankFusion } from '../retrieve/fuse';
import { queryCollection, type QueryContext } from '../retrieve/query';
import { chunksWhere } from '../service/chunk-lookup';
import {
  findCollectionOnConnector,
  loadCollection,
  loadConnector,
  setDimension,
  type CollectionRecord,
} from '../service/records';
import type { SqlClient } from '../stores/sql-client';
import { KnowledgeError, type ChunkInput, type Metadata, type VectorStore } from '../stores/vector-store';
import { parseCondition, parseFilterText } from './condition';
import { guardedLoaderFetch, loadDocuments } from '../loaders/index';
import { resolveTool } from '../service/tools';

export interface EngineContext extends QueryContext {
  sql: SqlClient;
  deps: KnowledgeDeps;
}

/** Where a node reads or writes, resolved in the run's workspace. */
interface ResolvedTarget {
  store: VectorStore;
  name: string;
  /** The RAG collection, when the target is one (collection mode, or a built-in store collection). */
  collection: CollectionRecord | null;
  dimension: number | null;
  /** What the node answers as `collection_id`. */
  id: string;
}

/** A chunk id from its source and content: the same text from the same source is the same record. */
export function recordId(source: string, content: string): string {
  const h = createHash('sha256').update(source).update('\n').update(content).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

const asMetadata = (value: Record<string, unknown>): Metadata =>
  JSON.parse(JSON.stringify(value)) as Metadata;
const LOOKUP_PAGE = 500;

/**
 * The engine's knowledge seam for one run, acting only in the run's workspace: retrieval through the
 * collection query, insertion (collection or custom target, smart insertion by content), deletion by a
 * condition, and the loaders (through the SSRF guard with the node policy; a Figma token from the
 * workspace's tools).
 */
export function createEngineKnowledge(ctx: EngineContext, scope: MeterScope): KnowledgeServices {
  async function resolve(target: StoreTarget): Promise<ResolvedTarget> {
    let collection: CollectionRecord | null = null;
    if (target.mode === 'collection') {
      collection = await loadCollection(ctx.sql, scope, target.collectionId);
    } else {
      const connector = await loadConnector(ctx.sql, scope, target.connectorId);
      if (connector.kind === 'builtin') {
        // The built-in store is shared by every workspace: only this workspace's collections are reachable.
        collection = await findCollectionOnConnector(ctx.sql, scope, connector.id, target.collectionName);
        if (!collection) {
          throw new KnowledgeError(
            404,
            'collection_not_found',
            `The built-in store has no collection "${target.collectionName}" in this workspace; create it on the Knowledge page or use collection mode.`,
          );
        }
      } else {
        const store = await ctx.storeFor(connector);
        const name = target.collectionName;
        const dimension = await store.collectionInfo(name).then(
          (info) => info.dimension,
          (error: unknown) => {
            if (error instanceof KnowledgeError && error.status === 404) return null;
            throw error;
          },
        );
        return { store, name, collection: null, dimension, id: name };
      }
    }
    const store = await ctx.storeFor(collection.connector);
    return {
      store,
      name: collection.collectionName,
      collection,
      dimension: collection.dimension,
      id: collection.id,
    };
  }

  /** Ids already stored among `ids` (smart insertion), looked up by the `chunk_id` metadata. */
  async function storedIds(t: ResolvedTarget, ids: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    if (t.dimension === null) return found;
    for (let i = 0; i < ids.length; i += LOOKUP_PAGE) {
      const page = ids.slice(i, i + LOOKUP_PAGE);
      const chunks = await chunksWhere(
        t.store,
        t.name,
        t.dimension,
        { field: 'chunk_id', op: 'in', value: page },
        page.length,
      );
      for (const c of chunks) found.add(c.id);
    }
    return found;
  }

  const loaderDeps = {
    fetch: guardedLoaderFetch(ctx.deps.loaderPolicy),
    resolveTool: (toolId: string) => resolveTool(ctx.sql, ctx.deps.box, scope, toolId),
    endpoints: ctx.deps.loaderEndpoints,
  };
  return {
    load: (request) => loadDocuments(request, loaderDeps),

    async retrieve(request) {
      const query = request.query.trim();
      if (!query)
        throw new KnowledgeError(422, 'query_required', 'Give a query to search the collection with.');
      const collection = await loadCollection(ctx.sql, scope, request.collectionId);
      const topK = Math.min(Math.max(1, Math.floor(request.limit) || 1), KNOWLEDGE_LIMITS.maxTopK);
      const filter = parseFilterText(request.filter);
      // A chatflow's follow-up: searched with its earlier questions first, then alone, fused by rank.
      const answers = await Promise.all(
        searchesFor(query, request.earlier)
          .reverse()
          .map(
            async (search) =>
              (
                await queryCollection(
                  ctx,
                  scope,
                  collection,
                  { query: search.slice(0, KNOWLEDGE_LIMITS.maxQueryChars), top_k: topK, filter },
                  request.signal,
                )
              ).documents,
          ),
      );
      const found = answers.length === 1 ? answers[0]! : reciprocalRankFusion(answers).slice(0, topK);
      // A fused chunk keeps the score its best search gave it.
      const best = new Map<string, number>();
      for (const d of answers.flat()) best.set(d.id, Math.max(best.get(d.id) ?? -Infinity, d.score));
      return found.map((d): FlowDocument => ({
        pageContent: d.content,
        // What an answer's sources are made of (see sourcesOfDocuments).
        metadata: {
          ...d.metadata,
          id: d.id,
          score: best.get(d.id) ?? d.score,
          collection_id: collection.id,
          collection_name: collection.name,
        },
      }));
    },

    async insert(request) {
      const t = await resolve(request.target);
      const modelId = t.collection?.embeddingsModelId ?? request.embeddingsModelId;
      if (!modelId) {
        throw new KnowledgeError(
          422,
          'embeddings_model_required',
          'Choose an embeddings model to insert with.',
        );
      }
      const byId = new Map<string, ChunkInput>();
      for (const doc of request.documents) {
        if (!doc.pageContent.trim()) continue;
        const metadata = asMetadata(doc.metadata);
        const source = typeof metadata.source === 'string' ? metadata.source : '';
        const id = recordId(source, doc.pageContent);
        byId.set(id, {
          id,
          content: doc.pageContent,
          embedding: [],
          metadata: { ...metadata, chunk_id: id },
        });
      }
      let chunks = [...byId.values()];
      if (request.smartInsertion) {
        const stored = await storedIds(t, [...byId.keys()]);
        chunks = chunks.filter((c) => !stored.has(c.id));
      }
      let ensured: Promise<void> | undefined;
      const ensure = (dimension: number) =>
        (ensured ??= (async () => {
          if (t.dimension !== null) return;
          try {
            await t.store.createCollection({ name: t.name, dimension, distance: t.collection?.distance });
          } catch (error) {
            if (!(error instanceof KnowledgeError && error.status === 409)) throw error;
          }
          if (t.collection) await setDimension(ctx.sql, t.collection.id, dimension);
          t.dimension = dimension;
        })());
      let inserted = 0;
      await ctx.calls.embedTexts(
        scope,
        modelId,
        chunks.map((c) => c.content),
        request.signal,
        async (start, vectors) => {
          await ensure(vectors[0]!.length);
          const batch = vectors.map((embedding, i) => ({ ...chunks[start + i]!, embedding }));
          inserted += await t.store.upsert(t.name, batch);
        },
      );
      // A RAG collection made for uploads defers its vector index until an ingestion is written: a flow
      // that writes to it builds it (at once, when it exists: one catalog lookup).
      if (inserted > 0 && t.collection?.connector.kind === 'builtin')
        await t.store.buildVectorIndex?.(t.name);
      return { inserted, collectionId: t.id };
    },

    async deleteRecords(request) {
      const filter = parseCondition(request.condition.trim());
      const t = await resolve(request.target);
      request.signal.throwIfAborted();
      if (t.dimension === null) return { deleted: 0 };
      return { deleted: await t.store.deleteWhere(t.name, filter) };
    },
  };
}
