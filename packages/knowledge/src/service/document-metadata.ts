import { isDeepStrictEqual } from 'node:util';
import { KnowledgeError, type Metadata, type VectorStore } from '../stores/vector-store';

/** A document's own metadata fields (`{"department": "HR"}`), as its row keeps them. */
export type DocumentFields = Record<string, string | number | boolean>;

/** Rounds of "apply, then check the row did not change meanwhile" before giving up on a row that keeps changing. */
const MAX_ROUNDS = 5;

export interface DocumentMetadataSync {
  store: VectorStore;
  collection: string;
  documentId: string;
  /** The row's fields now; null once the document is deleted. */
  current: () => Promise<DocumentFields | null>;
  /** Fields the document's chunks may still carry that the row may no longer have. */
  stale: Iterable<string>;
}

/**
 * Writes a document's own metadata fields on each of its stored chunks: the row's fields set, the
 * stale ones it no longer has removed (Atelier's own chunk metadata is never touched: those names are
 * reserved). Several writers (an edit, another edit, the ingestion that wrote chunks with the fields
 * it started with) may apply at once: each applies what the row holds, then reads the row again and
 * applies again if it changed meanwhile, so whoever applies last applies the row's latest fields.
 * A collection not made yet in its store holds nothing to change.
 */
export async function syncDocumentMetadata(sync: DocumentMetadataSync): Promise<void> {
  const stale = new Set(sync.stale);
  const filter = { field: 'document_id', op: 'eq' as const, value: sync.documentId };
  let fields = await sync.current();
  for (let round = 0; fields && round < MAX_ROUNDS; round++) {
    const set: Metadata = { ...fields };
    const unset = [...stale].filter((key) => !(key in fields!));
    // Nothing to write: no row version is made (a chunk's row changed is indexed again).
    if (Object.keys(set).length > 0 || unset.length > 0) {
      try {
        await sync.store.updateMetadata(sync.collection, filter, { set, unset });
      } catch (error) {
        if (error instanceof KnowledgeError && error.code === 'collection_not_found') return;
        throw error;
      }
    }
    for (const key of Object.keys(fields)) stale.add(key);
    const now = await sync.current();
    if (!now || isDeepStrictEqual(now, fields)) return;
    fields = now;
  }
}
