import { createEngineKnowledge } from '../engine/services';
import type { Knowledge, KnowledgeDeps } from '../facade';
import { storageNodeId } from '../ingest/storage-node';
import { webSourcePages } from '../ingest/web-source';
import { closeParsePool } from '../parse/pool';
import { createIngestionWorker } from '../ingest/worker';
import { queryCollection } from '../retrieve/query';
import { toSqlClient } from '../stores/sql-client';
import { createModelCalls } from './models';
import type { QueryCacheOptions } from './query-embeddings';
import { loadCollection } from './records';
import { createStoreCache } from './store-factory';

/** Tuning of the ingestion worker (tests shorten the poll and the lease). */
export interface KnowledgeOptions {
  pollMs?: number;
  leaseSeconds?: number;
  indexDelayMs?: number;
  /** The recent questions' embeddings (service/query-embeddings.ts): how long and how many are kept. */
  queryCache?: QueryCacheOptions;
}

/**
 * The knowledge capability: stores per connector, metered embedding and rerank calls, the ingestion
 * worker over `rag_documents`, collection queries and the engine's knowledge seam.
 */
export function createKnowledge(deps: KnowledgeDeps, options: KnowledgeOptions = {}): Knowledge {
  const sql = toSqlClient(deps.db);
  const stores = createStoreCache(deps);
  const calls = createModelCalls(deps, options.queryCache);
  const ctx = { deps, sql, calls, storeFor: stores.storeFor };
  let worker: ReturnType<typeof createIngestionWorker> | undefined;
  let node: string | undefined;

  return {
    storeFor: stores.storeFor,

    async query(scope, collectionId, body, loaded) {
      // A collection the caller read is still checked to be the one asked, in the scope's workspace.
      const given = loaded?.collection;
      if (
        loaded &&
        given?.id === collectionId &&
        given.organizationId === scope.organizationId &&
        given.workspaceId === scope.workspaceId
      ) {
        return queryCollection(ctx, scope, given, body, undefined, loaded.embeddings);
      }
      return queryCollection(ctx, scope, await loadCollection(sql, scope, collectionId), body);
    },

    webSourcePages(source, signal) {
      return webSourcePages(deps, source, signal);
    },

    storageNode() {
      node ??= storageNodeId(deps.dataDir);
      return node;
    },

    notifyIngestion() {
      worker?.notify();
    },

    startIngestionWorker({ concurrency }) {
      if (worker) return;
      worker = createIngestionWorker(ctx, { concurrency, ...options });
      worker.start();
    },

    engineServices(scope) {
      return createEngineKnowledge(ctx, scope);
    },

    async close() {
      await worker?.stop();
      worker = undefined;
      await stores.close();
      // The parser threads (shared by the process; a later parse starts them again).
      await closeParsePool();
    },
  };
}
