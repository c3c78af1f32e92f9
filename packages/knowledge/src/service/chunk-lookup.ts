import {
  KnowledgeError,
  MAX_TOP_K,
  type MetadataFilter,
  type StoredChunk,
  type VectorStore,
} from '../stores/vector-store';

/**
 * Reads stored chunks by metadata through the store's public interface (every store kind answers it):
 * a vector query with the filter and a fixed probe vector, asking for as many results as can match,
 * so the store returns every matching chunk (pgvector falls back to exact search for that).
 */
export async function chunksWhere(
  store: VectorStore,
  collection: string,
  dimension: number,
  filter: MetadataFilter,
  limit: number,
): Promise<StoredChunk[]> {
  if (limit <= 0) return [];
  const probe = new Array<number>(dimension).fill(0);
  probe[0] = 1;
  return store.query(collection, { vector: probe, topK: Math.min(limit, MAX_TOP_K), filter });
}

/** The content hash of each stored chunk of a document, by chunk index, read in pages of chunk indexes. */
export async function documentChunkHashes(
  store: VectorStore,
  collection: string,
  dimension: number,
  documentId: string,
  upTo: number,
): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (let from = 0; from < upTo; from += MAX_TOP_K) {
    const page = await chunksWhere(
      store,
      collection,
      dimension,
      {
        and: [
          { field: 'document_id', op: 'eq', value: documentId },
          { field: 'chunk_index', op: 'gte', value: from },
          { field: 'chunk_index', op: 'lt', value: from + MAX_TOP_K },
        ],
      },
      MAX_TOP_K,
    );
    for (const chunk of page) hashes.set(chunk.id, chunk.contentHash);
  }
  return hashes;
}

/**
 * A page of a document's stored chunks, in order: chunk indexes `offset` to `offset + limit - 1`. A
 * collection not made yet in its store holds none.
 */
export async function documentChunks(
  store: VectorStore,
  collection: string,
  dimension: number | null,
  documentId: string,
  page: { offset: number; limit: number },
): Promise<StoredChunk[]> {
  if (dimension === null) return [];
  const filter: MetadataFilter = {
    and: [
      { field: 'document_id', op: 'eq', value: documentId },
      { field: 'chunk_index', op: 'gte', value: page.offset },
      { field: 'chunk_index', op: 'lt', value: page.offset + page.limit },
    ],
  };
  const chunks = await chunksWhere(store, collection, dimension, filter, page.limit).catch(
    (error: unknown) => {
      if (error instanceof KnowledgeError && error.code === 'collection_not_found') return [];
      throw error;
    },
  );
  const index = (c: StoredChunk) => Number(c.metadata.chunk_index);
  return chunks.sort((a, b) => index(a) - index(b));
}
