import { setMaxListeners } from 'node:events';
import { loadCollectionById, type CollectionRecord } from '../service/records';
import { KnowledgeError } from '../stores/vector-store';
import { ingestDocument, LeaseLost, type IngestContext, type IngestState } from './ingest-document';
import {
  claimDocument,
  documentExists,
  drainedCollectionIds,
  failExhausted,
  hasPendingDocuments,
  type ClaimedDocument,
  type Lease,
} from './queue';
import { storageNodeId } from './storage-node';

export const MAX_ATTEMPTS = 3;

export interface IngestionWorkerOptions {
  concurrency: number;
  /** How often idle lanes look for queued documents (they also wake on `notify`). Default 3 s. */
  pollMs?: number;
  /** How long a collection must stay drained before its deferred vector index is built. Default 1 s. */
  indexDelayMs?: number;
  /** How long a claim holds without renewal; renewed every third of it. Default 60 s. */
  leaseSeconds?: number;
}

/** The readable reason of a failure, whatever threw it. */
export function failureDetail(error: unknown): string {
  if (error && typeof error === 'object' && 'detail' in error && typeof error.detail === 'string') {
    return error.detail;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Provider trouble that may pass (rate limit, timeout, 5xx), or a web page that could not be reached
 * (a timeout, a broken connection): worth another attempt later.
 */
export function isTransient(error: unknown): boolean {
  const e = error as { name?: string; retryable?: boolean; code?: string } | null;
  if (e?.name === 'LoaderError') return e.code === 'request_timeout' || e.code === 'request_failed';
  return Boolean(e && e.name === 'ProviderError' && e.retryable);
}

/**
 * Ingestion as a queue of `rag_documents` rows: `concurrency` lanes claim documents (queued, or left
 * processing by a worker whose lease lapsed), renew their lease while working, and look again every
 * `pollMs` or as soon as `notify` is called.
 */
export function createIngestionWorker(ctx: IngestContext, options: IngestionWorkerOptions) {
  const pollMs = options.pollMs ?? 3000;
  const leaseSeconds = options.leaseSeconds ?? 60;
  const indexDelayMs = options.indexDelayMs ?? 1000;
  /** Index builds waiting for their collection to stay drained, by collection id. */
  const indexTimers = new Map<string, ReturnType<typeof setTimeout>>();
  const storageNode = storageNodeId(ctx.deps.dataDir);
  const stopping = new AbortController();
  let wake: (() => void)[] = [];
  let lanes: Promise<void>[] = [];

  const sleep = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, pollMs);
      function done() {
        clearTimeout(timer);
        wake = wake.filter((w) => w !== done);
        resolve();
      }
      wake.push(done);
    });

  /**
   * The chunks of a document that no longer exists (deleted while being ingested) are removed; when its
   * whole built-in collection was deleted meanwhile, the store collection this worker may have just
   * written to goes too.
   */
  async function dropIfDeleted(document: ClaimedDocument, state: IngestState): Promise<void> {
    if (await documentExists(ctx.sql, document.id)) return;
    const collection = state.collection;
    if (collection?.connector.kind === 'builtin' && !(await loadCollectionById(ctx.sql, collection.id))) {
      const store = await ctx.storeFor(collection.connector);
      await store.dropCollection(collection.collectionName).catch((error: unknown) => {
        if (!(error instanceof KnowledgeError && error.status === 404)) throw error;
      });
      return;
    }
    await removeChunks(document, state);
  }

  async function removeChunks(document: ClaimedDocument, state: IngestState): Promise<void> {
    const collection = state.collection;
    if (!collection || collection.dimension === null) return;
    const store = await ctx.storeFor(collection.connector);
    await store
      .deleteWhere(collection.collectionName, { field: 'document_id', op: 'eq', value: document.id })
      .catch((error: unknown) => {
        if (!(error instanceof KnowledgeError && error.status === 404)) throw error;
      });
  }

  async function handleFailure(document: ClaimedDocument, lease: Lease, state: IngestState, error: unknown) {
    if (error instanceof LeaseLost || !lease.held) return dropIfDeleted(document, state);
    if (stopping.signal.aborted) {
      await lease.update({ requeue: true });
      return;
    }
    const detail = failureDetail(error);
    if (isTransient(error) && document.attempts < MAX_ATTEMPTS) {
      // Stays processing with a short lease: claimed again when it lapses.
      await lease.update({ retryAfterSeconds: 15 * document.attempts, error: detail });
      return;
    }
    // A first ingestion that failed leaves nothing half-done behind; a failed re-upload keeps the old chunks.
    if (state.firstIngestion) await removeChunks(document, state);
    const failed = await lease.update({
      status: 'failed',
      error: detail,
      progress: 0,
      release: true,
      ...(state.firstIngestion ? { chunkCount: 0, chunksSkipped: 0 } : {}),
    });
    if (!failed) await dropIfDeleted(document, state);
  }

  /**
   * Once no document of a built-in collection waits any more, its deferred vector index is built: one
   * build after a whole ingestion instead of an index kept up to date chunk by chunk.
   */
  async function indexWhenDrained(collection: CollectionRecord): Promise<void> {
    if (collection.connector.kind !== 'builtin' || collection.dimension === null) return;
    if (await hasPendingDocuments(ctx.sql, collection.id)) return;
    const store = await ctx.storeFor(collection.connector);
    await store.buildVectorIndex?.(collection.collectionName).catch((error: unknown) => {
      // Deleted meanwhile: nothing to index.
      if (!(error instanceof KnowledgeError && error.status === 404)) throw error;
    });
  }

  /**
   * The build waits until the collection has stayed drained for `indexDelayMs`: a queue that empties
   * for a moment between two uploads of one ingestion does not start a build the next upload would
   * then wait for (and write through, row by row). A document of the collection claimed meanwhile, or
   * finished, puts the build off again.
   */
  function indexSoon(collection: CollectionRecord): void {
    if (collection.connector.kind !== 'builtin' || collection.dimension === null) return;
    clearTimeout(indexTimers.get(collection.id));
    const timer = setTimeout(() => {
      indexTimers.delete(collection.id);
      if (stopping.signal.aborted) return;
      indexWhenDrained(collection).catch((error: unknown) =>
        ctx.deps.onError(error, `building the vector index of collection ${collection.id}`),
      );
    }, indexDelayMs);
    timer.unref();
    indexTimers.set(collection.id, timer);
  }

  /** After a restart: collections whose ingestion ended before their index was built get it now. */
  async function indexDrainedCollections(): Promise<void> {
    for (const id of await drainedCollectionIds(ctx.sql)) {
      if (stopping.signal.aborted) return;
      const collection = await loadCollectionById(ctx.sql, id);
      if (collection) await indexWhenDrained(collection);
    }
  }

  async function process(document: ClaimedDocument, lease: Lease): Promise<void> {
    const state: IngestState = { firstIngestion: false, collection: null };
    const abort = new AbortController();
    // Each provider call listens to it for a while: a long document makes many calls.
    setMaxListeners(0, abort.signal);
    const onStop = () => abort.abort(stopping.signal.reason);
    stopping.signal.addEventListener('abort', onStop);
    const renewal = setInterval(
      () => {
        lease
          .update()
          .then((held) => held || abort.abort(new LeaseLost()))
          .catch((error: unknown) => ctx.deps.onError(error, 'renewing an ingestion lease'));
      },
      (leaseSeconds * 1000) / 3,
    );
    renewal.unref();
    try {
      await ingestDocument(ctx, document, lease, state, abort.signal);
    } catch (error) {
      await handleFailure(document, lease, state, error).catch((e: unknown) =>
        ctx.deps.onError(e, `recording the failure of document ${document.id}`),
      );
    } finally {
      clearInterval(renewal);
      stopping.signal.removeEventListener('abort', onStop);
    }
    // The build waits for the collection to stay unclaimed a moment, then for its queue to be empty
    // (indexWhenDrained asks): no query here, after every document.
    if (state.collection && !stopping.signal.aborted) indexSoon(state.collection);
  }

  async function lane(): Promise<void> {
    while (!stopping.signal.aborted) {
      let claimed: Awaited<ReturnType<typeof claimDocument>> = null;
      try {
        claimed = await claimDocument(ctx.sql, leaseSeconds, storageNode);
      } catch (error) {
        ctx.deps.onError(error, 'claiming a document to ingest');
      }
      if (!claimed) {
        await sleep();
        continue;
      }
      const { document, lease } = claimed;
      // More of the collection to ingest: its index build waits for the end.
      clearTimeout(indexTimers.get(document.collectionId));
      indexTimers.delete(document.collectionId);
      if (document.attempts > MAX_ATTEMPTS) {
        await failExhausted(
          ctx.sql,
          document.id,
          `Ingestion stopped ${MAX_ATTEMPTS} times before finishing (the server restarted or the provider kept failing); upload the document again.`,
        ).catch((error: unknown) => ctx.deps.onError(error, 'failing an exhausted document'));
        continue;
      }
      await process(document, lease);
    }
  }

  return {
    start() {
      if (lanes.length > 0 || stopping.signal.aborted) return;
      const count = Math.max(1, Math.floor(options.concurrency));
      lanes = Array.from({ length: count }, () => lane());
      lanes.push(
        indexDrainedCollections().catch((error: unknown) =>
          ctx.deps.onError(error, 'building the vector indexes of ingested collections'),
        ),
      );
    },
    notify() {
      for (const w of [...wake]) w();
    },
    async stop(): Promise<void> {
      stopping.abort(new Error('The ingestion worker is stopping'));
      for (const timer of indexTimers.values()) clearTimeout(timer);
      indexTimers.clear();
      for (const w of [...wake]) w();
      await Promise.all(lanes);
      lanes = [];
    },
  };
}
