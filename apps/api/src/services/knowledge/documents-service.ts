import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ragDocuments, type Db } from '@atelier/db';
import { documentChunks, syncDocumentMetadata, type DocumentFields } from '@atelier/knowledge';
import type {
  AddWebDocumentsBody,
  DocumentChunksAnswer,
  DocumentMetadata,
  MetadataField,
  RagDocument,
  UploadDocumentsAnswer,
  UpdateRagDocumentsBody,
} from '@atelier/schemas';
import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { AppError, conflict, notFound } from '../errors';
import { uploadsDirOf, type CollectionsService, type FoundCollection } from './collections-service';
import type { ConnectorsService, KnowledgeApi } from './connectors-service';
import { mapped } from './errors';
import { discard, keep, type StagedFile } from './staged-files';
import { stageFiles, type UploadPart } from './upload-files';

type DocumentRow = typeof ragDocuments.$inferSelect;
/** A document whose fields an upload or an edit changed, with the fields its chunks had. */
interface Changed {
  id: string;
  before: DocumentFields;
}

const MAX_FIELD_VALUES = 50;

/** The fields of a collection's documents: each with its kinds, how many documents have it, and its most frequent values. */
export function collectionFields(all: readonly DocumentFields[]): MetadataField[] {
  const fields = new Map<
    string,
    {
      types: Set<'string' | 'number' | 'boolean'>;
      documents: number;
      values: Map<string, { value: string | number | boolean; documents: number }>;
    }
  >();
  for (const metadata of all) {
    for (const [key, value] of Object.entries(metadata)) {
      let field = fields.get(key);
      if (!field) fields.set(key, (field = { types: new Set(), documents: 0, values: new Map() }));
      field.types.add(typeof value as 'string' | 'number' | 'boolean');
      field.documents += 1;
      const id = JSON.stringify(value);
      const seen = field.values.get(id);
      if (seen) seen.documents += 1;
      else field.values.set(id, { value, documents: 1 });
    }
  }
  return [...fields.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, field]) => ({
      key,
      types: [...field.types].sort(),
      documents: field.documents,
      values: [...field.values.values()]
        .sort((a, b) => b.documents - a.documents || String(a.value).localeCompare(String(b.value)))
        .slice(0, MAX_FIELD_VALUES),
    }));
}

export function toRagDocument(row: DocumentRow): RagDocument {
  return {
    id: row.id,
    collection_id: row.collectionId,
    filename: row.filename,
    source_url: row.sourceUrl,
    type: row.type,
    size_bytes: row.sizeBytes,
    status: row.status,
    progress: row.progress,
    chunk_count: row.chunkCount,
    chunks_skipped: row.chunksSkipped,
    ocr_pages: row.ocrPages,
    ocr_pictures: row.ocrPictures,
    metadata: row.metadata,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export interface DocumentsDeps {
  db: Db;
  collections: CollectionsService;
  connectors: ConnectorsService;
  knowledge: KnowledgeApi;
  dataDir: string;
  onError?: (error: unknown, context: string) => void;
}

/**
 * A collection's documents: uploads streamed to `<dataDir>/uploads/<org>/<collection>/<file>` and
 * queued for ingestion (the `rag_documents` row is the job). The same filename again reuses its row, so
 * smart insertion can skip the chunks that did not change; the very same file, already ingested, is
 * left as it is.
 */
export function createDocumentsService(deps: DocumentsDeps) {
  const { db } = deps;
  const pathOf = (stored: string) => resolve(deps.dataDir, stored);

  async function editable(principal: Principal, collectionId: string) {
    const found = await deps.collections.find(principal, collectionId);
    await deps.collections.canEdit(principal, found.row.workspaceId);
    return found;
  }

  /** The documents of a collection, in the caller's organization. */
  const ofCollection = (principal: Principal, collectionId: string) =>
    and(
      eq(ragDocuments.collectionId, collectionId),
      eq(ragDocuments.organizationId, principal.organizationId),
    );

  async function findDocument(principal: Principal, collectionId: string, id: string) {
    const [row] = await db
      .select()
      .from(ragDocuments)
      .where(and(eq(ragDocuments.id, id), ofCollection(principal, collectionId)))
      .limit(1);
    if (!row) throw notFound('document');
    return row;
  }

  /** A document row (new, or added again) as a fresh job in the ingestion queue. */
  const queuedBy = (principal: Principal) => ({
    status: 'queued' as const,
    progress: 0,
    error: null,
    attempts: 0,
    lockedUntil: null,
    uploadedBy: principal.userId,
    updatedAt: new Date(),
  });

  /**
   * Records staged files in one transaction; answers each file's row, and the documents whose fields
   * the upload changed (`metadata` given) with the fields their stored chunks had.
   */
  async function record(
    principal: Principal,
    collection: { id: string; workspaceId: string },
    dir: string,
    staged: StagedFile[],
    metadata: DocumentMetadata | undefined,
  ) {
    return db.transaction(async (tx) => {
      const rows: DocumentRow[] = [];
      const changed: Changed[] = [];
      for (const file of staged) {
        const [existing] = await tx
          .select()
          .from(ragDocuments)
          .where(and(eq(ragDocuments.collectionId, collection.id), eq(ragDocuments.filename, file.filename)))
          .limit(1);
        // A document with no stored chunks has none to change.
        if (
          existing &&
          existing.chunkCount > 0 &&
          metadata &&
          !isDeepStrictEqual(existing.metadata, metadata)
        ) {
          changed.push({ id: existing.id, before: existing.metadata });
        }
        if (existing && existing.sha256 === file.sha256 && existing.status === 'ready') {
          if (!metadata) rows.push(existing);
          else {
            const [row] = await tx
              .update(ragDocuments)
              .set({ metadata, updatedAt: new Date() })
              .where(eq(ragDocuments.id, existing.id))
              .returning();
            rows.push(row!);
          }
          continue;
        }
        const id = existing?.id ?? randomUUID();
        const path = join(dir, id);
        await keep(file, path);
        const job = {
          mimeType: file.mimeType,
          type: null,
          sizeBytes: file.sizeBytes,
          sha256: file.sha256,
          storagePath: relative(deps.dataDir, path),
          // A name that once was a web page's address is a file now.
          sourceUrl: null,
          storageNode: deps.knowledge.storageNode(),
          ...queuedBy(principal),
          // Given fields replace the document's; otherwise a document uploaded again keeps its own.
          ...(metadata ? { metadata } : {}),
        };
        const [row] = await tx
          .insert(ragDocuments)
          .values({
            id,
            organizationId: principal.organizationId,
            workspaceId: collection.workspaceId,
            collectionId: collection.id,
            filename: file.filename,
            ...job,
          })
          .onConflictDoUpdate({ target: [ragDocuments.collectionId, ragDocuments.filename], set: job })
          .returning();
        rows.push(row!);
      }
      return { rows, changed };
    });
  }

  /**
   * Queues web pages (their address is their name): a page added before is queued again (fetched anew;
   * smart insertion skips its chunks that did not change), one being ingested is left to finish.
   */
  async function recordPages(
    principal: Principal,
    collection: { id: string; workspaceId: string },
    urls: string[],
    metadata: DocumentMetadata | undefined,
  ) {
    return db.transaction(async (tx) => {
      const rows: DocumentRow[] = [];
      for (const url of urls) {
        const job = {
          mimeType: 'text/html',
          sourceUrl: url,
          storagePath: null,
          storageNode: null,
          ...queuedBy(principal),
          ...(metadata ? { metadata } : {}),
        };
        const [row] = await tx
          .insert(ragDocuments)
          .values({
            organizationId: principal.organizationId,
            workspaceId: collection.workspaceId,
            collectionId: collection.id,
            filename: url,
            sha256: '',
            ...job,
          })
          .onConflictDoUpdate({
            target: [ragDocuments.collectionId, ragDocuments.filename],
            set: job,
            setWhere: sql`${ragDocuments.status} <> 'processing'`,
          })
          .returning();
        if (row) rows.push(row);
        else {
          const [busy] = await tx
            .select()
            .from(ragDocuments)
            .where(and(eq(ragDocuments.collectionId, collection.id), eq(ragDocuments.filename, url)))
            .limit(1);
          rows.push(busy!);
        }
      }
      return rows;
    });
  }

  /** A document's fields now (null once deleted). */
  async function fieldsNow(id: string): Promise<DocumentFields | null> {
    const [row] = await db
      .select({ metadata: ragDocuments.metadata })
      .from(ragDocuments)
      .where(eq(ragDocuments.id, id))
      .limit(1);
    return row?.metadata ?? null;
  }

  /**
   * Brings each changed document's stored chunks to its row's fields (their old ones removed); a
   * collection that stored nothing yet has nothing to change.
   */
  async function syncFields(found: FoundCollection, changed: readonly Changed[]) {
    if (changed.length === 0 || found.row.dimension === null) return;
    const store = await deps.connectors.storeOf(found.connector);
    for (const { id, before } of changed) {
      await mapped(
        () =>
          syncDocumentMetadata({
            store,
            collection: found.row.collectionName,
            documentId: id,
            current: () => fieldsNow(id),
            stale: Object.keys(before),
          }),
        found.connector.kind !== 'builtin',
      );
    }
  }

  /**
   * Writes documents' new fields on their rows (one transaction), then on their stored chunks; when the
   * store cannot be reached, each row still holding what was written gets its fields back and the
   * error is answered. A document whose fields do not change is answered as it is.
   */
  async function writeFields(
    found: FoundCollection,
    changes: readonly { row: DocumentRow; next: DocumentFields }[],
  ): Promise<DocumentRow[]> {
    const moved = changes.filter((c) => !isDeepStrictEqual(c.row.metadata, c.next));
    const written = await db.transaction(async (tx) => {
      const rows = new Map<string, DocumentRow>();
      for (const { row, next } of moved) {
        const [updated] = await tx
          .update(ragDocuments)
          .set({ metadata: next, updatedAt: new Date() })
          .where(eq(ragDocuments.id, row.id))
          .returning();
        if (updated) rows.set(row.id, updated);
      }
      return rows;
    });
    try {
      await syncFields(
        found,
        moved.filter((c) => written.has(c.row.id)).map((c) => ({ id: c.row.id, before: c.row.metadata })),
      );
    } catch (error) {
      for (const { row, next } of moved) {
        await db
          .update(ragDocuments)
          .set({ metadata: row.metadata })
          .where(
            and(eq(ragDocuments.id, row.id), sql`${ragDocuments.metadata} = ${JSON.stringify(next)}::jsonb`),
          );
      }
      throw error;
    }
    return changes.flatMap((c) => {
      const row = moved.includes(c) ? written.get(c.row.id) : c.row;
      return row ? [row] : [];
    });
  }

  /** Refuses a collection of an external store Atelier only reads (409). */
  async function writableOne(principal: Principal, collectionId: string) {
    const found = await editable(principal, collectionId);
    if (!(await deps.collections.writable(found))) {
      throw conflict(
        'collection_read_only',
        'This collection belongs to an external store that Atelier only reads: documents cannot be added.',
      );
    }
    return found;
  }

  return {
    /**
     * Adds web pages: one page (its address checked against the loaders' SSRF policy now), or the pages
     * its sitemap lists (read now, at most `max_pages`); the ingestion worker fetches each page.
     */
    async addFromWeb(
      principal: Principal,
      collectionId: string,
      body: AddWebDocumentsBody,
      signal: AbortSignal,
    ) {
      const found = await writableOne(principal, collectionId);
      const urls = await mapped(() =>
        deps.knowledge.webSourcePages(
          { url: body.url, sitemap: body.sitemap, maxPages: body.max_pages, filter: body.filter },
          signal,
        ),
      );
      const rows = await recordPages(principal, found.row, urls, body.metadata);
      deps.knowledge.notifyIngestion();
      return rows.map(toRagDocument);
    },

    async upload(
      principal: Principal,
      collectionId: string,
      parts: () => AsyncIterable<UploadPart>,
    ): Promise<UploadDocumentsAnswer> {
      const found = await writableOne(principal, collectionId);
      const dir = uploadsDirOf(deps.dataDir, found.row.organizationId, found.row.id);
      const { files, metadata, skipped } = await stageFiles(parts(), dir, {
        images: found.row.ocrModelId !== null,
      });
      let recorded: Awaited<ReturnType<typeof record>>;
      try {
        recorded = await record(principal, found.row, dir, files, metadata);
      } finally {
        await discard(files);
      }
      deps.knowledge.notifyIngestion();
      // The chunks a document kept (the same file, or the parts a new version did not change) get the new
      // fields now; the store being out of reach does not undo the upload (each later edit writes them all).
      await syncFields(found, recorded.changed).catch((error: unknown) =>
        deps.onError?.(
          error,
          `documents' metadata not written on their chunks in collection ${collectionId}`,
        ),
      );
      return { documents: recorded.rows.map(toRagDocument), skipped };
    },

    /**
     * Replaces a document's own metadata fields and writes them on its stored chunks (not embedded
     * again). When the store cannot be reached the row keeps its fields as they were and the error is
     * answered.
     */
    async update(
      principal: Principal,
      collectionId: string,
      id: string,
      metadata: DocumentMetadata,
    ): Promise<RagDocument> {
      const found = await editable(principal, collectionId);
      const document = await findDocument(principal, collectionId, id);
      const [row] = await writeFields(found, [{ row: document, next: metadata }]);
      return toRagDocument(row!);
    },

    /**
     * Sets and removes fields on several documents at once (each keeps its other fields); all are
     * found in the collection or none changes (404); a document left with too many fields refuses all (422).
     */
    async updateMany(
      principal: Principal,
      collectionId: string,
      body: UpdateRagDocumentsBody,
    ): Promise<RagDocument[]> {
      const found = await editable(principal, collectionId);
      const ids = [...new Set(body.document_ids)];
      const rows = await db
        .select()
        .from(ragDocuments)
        .where(and(ofCollection(principal, collectionId), inArray(ragDocuments.id, ids)));
      if (rows.length !== ids.length) throw notFound('document');
      const changes = rows.map((row) => {
        const next: DocumentFields = { ...row.metadata, ...body.set };
        for (const key of body.unset ?? []) delete next[key];
        if (Object.keys(next).length > KNOWLEDGE_LIMITS.maxDocumentMetadataFields) {
          throw new AppError(
            422,
            'too_many_fields',
            `"${row.filename}" would have more than ${KNOWLEDGE_LIMITS.maxDocumentMetadataFields} metadata fields.`,
          );
        }
        return { row, next };
      });
      const written = await writeFields(found, changes);
      const order = new Map(ids.map((id, i) => [id, i]));
      return written.sort((a, b) => order.get(a.id)! - order.get(b.id)!).map(toRagDocument);
    },

    /** The metadata fields the collection's documents have, with their most frequent values. */
    async metadataFields(principal: Principal, collectionId: string): Promise<MetadataField[]> {
      await deps.collections.find(principal, collectionId);
      const rows = await db
        .select({ metadata: ragDocuments.metadata })
        .from(ragDocuments)
        .where(ofCollection(principal, collectionId));
      return collectionFields(rows.map((r) => r.metadata));
    },

    async list(principal: Principal, collectionId: string): Promise<RagDocument[]> {
      await deps.collections.find(principal, collectionId);
      const rows = await db
        .select()
        .from(ragDocuments)
        .where(ofCollection(principal, collectionId))
        .orderBy(desc(ragDocuments.createdAt), desc(ragDocuments.id));
      return rows.map(toRagDocument);
    },

    async get(principal: Principal, collectionId: string, id: string): Promise<RagDocument> {
      await deps.collections.find(principal, collectionId);
      return toRagDocument(await findDocument(principal, collectionId, id));
    },

    /** A page of the document's chunks, in order, as its collection's store holds them. */
    async chunks(
      principal: Principal,
      collectionId: string,
      id: string,
      page: { limit: number; offset: number },
    ): Promise<DocumentChunksAnswer> {
      const { row: collection, connector } = await deps.collections.find(principal, collectionId);
      const document = await findDocument(principal, collectionId, id);
      const store = await deps.connectors.storeOf(connector);
      const chunks = await mapped(
        () => documentChunks(store, collection.collectionName, collection.dimension, id, page),
        connector.kind !== 'builtin',
      );
      return {
        chunks: chunks.map((c) => ({ id: c.id, content: c.content, metadata: c.metadata })),
        total: document.chunkCount,
        ...page,
      };
    },

    /** Deletes the document's chunks from the store, its waiting file and its row. */
    async remove(principal: Principal, collectionId: string, id: string) {
      const { row: collection, connector } = await editable(principal, collectionId);
      const document = await findDocument(principal, collectionId, id);
      const store = await deps.connectors.storeOf(connector);
      await mapped(
        () => store.deleteWhere(collection.collectionName, { field: 'document_id', op: 'eq', value: id }),
        connector.kind !== 'builtin',
      ).catch((error: unknown) => {
        // A store collection already gone holds no chunks of it.
        if ((error as { status?: number }).status !== 404) throw error;
      });
      if (document.storagePath) await unlink(pathOf(document.storagePath)).catch(() => undefined);
      await db.delete(ragDocuments).where(eq(ragDocuments.id, id));
    },
  };
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;
