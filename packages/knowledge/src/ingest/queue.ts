import type { SqlClient } from '../stores/sql-client';
import type { DocumentFields } from '../service/document-metadata';

/** A document row claimed by this worker, as ingestion needs it. */
export interface ClaimedDocument {
  id: string;
  organizationId: string;
  workspaceId: string;
  collectionId: string;
  filename: string;
  mimeType: string;
  storagePath: string | null;
  /** A web page added by its address: fetched instead of read from disk. */
  sourceUrl: string | null;
  attempts: number;
  uploadedBy: string | null;
  /** Chunks stored by an earlier ingestion (or an interrupted one): 0 means none to compare with. */
  chunkCount: number;
  /** The document's own metadata fields when it was claimed: written on each chunk made. */
  metadata: DocumentFields;
}

interface ClaimRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  collection_id: string;
  filename: string;
  mime_type: string;
  storage_path: string | null;
  source_url: string | null;
  metadata: DocumentFields | string;
  attempts: number;
  uploaded_by: string | null;
  chunk_count: number;
  lease: string;
}

/**
 * Takes the oldest queued document whose file is in this DATA_DIR (`storageNode`) or that is a web page
 * (any worker fetches it), or one whose worker's lease lapsed (a crash, a restart), in one statement
 * that works on PostgreSQL and PGlite; concurrent workers skip each other's rows.
 */
export async function claimDocument(
  sql: SqlClient,
  leaseSeconds: number,
  storageNode: string,
): Promise<{ document: ClaimedDocument; lease: Lease } | null> {
  const [row] = await sql.query<ClaimRow>(
    `UPDATE rag_documents SET status = 'processing', locked_until = now() + make_interval(secs => $1),
       attempts = attempts + 1, updated_at = now()
     WHERE id = (SELECT id FROM rag_documents
                 WHERE (status = 'queued' OR (status = 'processing' AND locked_until < now()))
                   AND (storage_node = $2 OR source_url IS NOT NULL)
                 ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
     RETURNING id, organization_id, workspace_id, collection_id, filename, mime_type, storage_path,
       source_url, metadata, attempts, uploaded_by, chunk_count, locked_until::text AS lease`,
    [leaseSeconds, storageNode],
  );
  if (!row) return null;
  const document: ClaimedDocument = {
    id: row.id,
    organizationId: row.organization_id,
    workspaceId: row.workspace_id,
    collectionId: row.collection_id,
    filename: row.filename,
    mimeType: row.mime_type,
    storagePath: row.storage_path,
    sourceUrl: row.source_url,
    attempts: row.attempts,
    uploadedBy: row.uploaded_by,
    chunkCount: row.chunk_count,
    metadata: fieldsOf(row.metadata),
  };
  return { document, lease: new Lease(sql, row.id, row.lease, leaseSeconds) };
}

/** What ingestion writes as it goes and when it ends. */
export interface DocumentUpdate {
  status?: 'processing' | 'ready' | 'failed';
  progress?: number;
  chunkCount?: number;
  chunksSkipped?: number;
  /** Pages an OCR model read whole (scans, an image). */
  ocrPages?: number;
  /** Pictures inside the document an OCR model read. */
  ocrPictures?: number;
  type?: string;
  /** The size of what was read (a web page: known once fetched). */
  sizeBytes?: number;
  error?: string | null;
  /** Ends the lease (ready, failed); otherwise it is renewed. */
  release?: boolean;
  clearStoragePath?: boolean;
  /** Leaves the row processing with its lease ending in this many seconds (a retry after a pause). */
  retryAfterSeconds?: number;
  /** Puts the row back in the queue, this attempt not counted (the worker is stopping). */
  requeue?: boolean;
}

/**
 * This worker's hold on a document row. Every write is fenced by the lease value this worker last set:
 * a row deleted, re-queued by a new upload or taken by another worker is no longer ours, and the write
 * answers false. Writes run one after another.
 */
export class Lease {
  private chain: Promise<unknown> = Promise.resolve();
  private lost = false;

  constructor(
    private readonly sql: SqlClient,
    readonly documentId: string,
    private value: string,
    private readonly leaseSeconds: number,
  ) {}

  get held(): boolean {
    return !this.lost;
  }

  /** Applies an update if the row is still ours; answers whether it was. */
  update(update: DocumentUpdate = {}): Promise<boolean> {
    const run = async () => {
      if (this.lost) return false;
      const sets = ['updated_at = now()'];
      const params: unknown[] = [this.documentId, this.value];
      const add = (column: string, value: unknown) => {
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      };
      if (update.status) add('status', update.status);
      if (update.progress !== undefined) add('progress', update.progress);
      if (update.chunkCount !== undefined) add('chunk_count', update.chunkCount);
      if (update.chunksSkipped !== undefined) add('chunks_skipped', update.chunksSkipped);
      if (update.ocrPages !== undefined) add('ocr_pages', update.ocrPages);
      if (update.ocrPictures !== undefined) add('ocr_pictures', update.ocrPictures);
      if (update.type !== undefined) add('type', update.type);
      if (update.sizeBytes !== undefined) add('size_bytes', update.sizeBytes);
      if (update.error !== undefined) add('error', update.error);
      if (update.clearStoragePath) sets.push('storage_path = NULL');
      if (update.requeue) sets.push("status = 'queued'", 'attempts = greatest(attempts - 1, 0)');
      if (update.release || update.requeue) sets.push('locked_until = NULL');
      else {
        params.push(update.retryAfterSeconds ?? this.leaseSeconds);
        sets.push(`locked_until = now() + make_interval(secs => $${params.length})`);
      }
      const rows = await this.sql.query<{ lease: string | null }>(
        `UPDATE rag_documents SET ${sets.join(', ')}
         WHERE id = $1 AND status = 'processing' AND locked_until = $2::timestamptz
         RETURNING locked_until::text AS lease`,
        params,
      );
      const row = rows[0];
      if (!row) {
        this.lost = true;
        return false;
      }
      if (row.lease) this.value = row.lease;
      else this.lost = true;
      return true;
    };
    const next = this.chain.then(run, run);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/** A JSON column as the driver answers it: parsed (node-postgres, PGlite) or text. */
const fieldsOf = (value: DocumentFields | string | null | undefined): DocumentFields =>
  typeof value === 'string' ? (JSON.parse(value) as DocumentFields) : (value ?? {});

/** A document's own metadata fields now; null once it is deleted. */
export async function documentFields(sql: SqlClient, id: string): Promise<DocumentFields | null> {
  const [row] = await sql.query<{ metadata: DocumentFields | string }>(
    'SELECT metadata FROM rag_documents WHERE id = $1',
    [id],
  );
  return row ? fieldsOf(row.metadata) : null;
}

/** Whether a document row still exists (a deleted one must not come back). */
export async function documentExists(sql: SqlClient, id: string): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM rag_documents WHERE id = $1', [id]);
  return rows.length > 0;
}

/** Fails a document whose worker gave up on it too often (it never got to write its own end). */
export async function failExhausted(sql: SqlClient, id: string, detail: string): Promise<void> {
  await sql.query(
    `UPDATE rag_documents SET status = 'failed', error = $2, locked_until = NULL, updated_at = now()
     WHERE id = $1 AND status = 'processing'`,
    [id, detail],
  );
}

/** Whether a collection still has documents waiting for or under ingestion. */
export async function hasPendingDocuments(sql: SqlClient, collectionId: string): Promise<boolean> {
  const rows = await sql.query(
    "SELECT 1 FROM rag_documents WHERE collection_id = $1 AND status IN ('queued', 'processing') LIMIT 1",
    [collectionId],
  );
  return rows.length > 0;
}

/** Collections holding ingested documents and none waiting: those whose vector index may be missing. */
export async function drainedCollectionIds(sql: SqlClient): Promise<string[]> {
  const rows = await sql.query<{ id: string }>(
    `SELECT c.id FROM rag_collections c
      WHERE c.dimension IS NOT NULL
        AND EXISTS (SELECT 1 FROM rag_documents d WHERE d.collection_id = c.id AND d.status = 'ready')
        AND NOT EXISTS (
          SELECT 1 FROM rag_documents d WHERE d.collection_id = c.id AND d.status IN ('queued', 'processing'))`,
  );
  return rows.map((row) => row.id);
}
