import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { ragDocuments, type Db } from '@atelier/db';
import { documentChunks } from '@atelier/knowledge';
import type { AddWebDocumentsBody, DocumentChunksAnswer, RagDocument } from '@atelier/schemas';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { conflict, notFound } from '../errors';
import { uploadsDirOf, type CollectionsService } from './collections-service';
import type { ConnectorsService, KnowledgeApi } from './connectors-service';
import { mapped } from './errors';
import { discard, keep, stageFiles, type StagedFile, type UploadPart } from './upload-files';

type DocumentRow = typeof ragDocuments.$inferSelect;

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

  async function findDocument(principal: Principal, collectionId: string, id: string) {
    const [row] = await db
      .select()
      .from(ragDocuments)
      .where(
        and(
          eq(ragDocuments.id, id),
          eq(ragDocuments.collectionId, collectionId),
          eq(ragDocuments.organizationId, principal.organizationId),
        ),
      )
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

  /** Records staged files in one transaction; answers each file's row. */
  async function record(
    principal: Principal,
    collection: { id: string; workspaceId: string },
    dir: string,
    staged: StagedFile[],
  ) {
    return db.transaction(async (tx) => {
      const rows: DocumentRow[] = [];
      for (const file of staged) {
        const [existing] = await tx
          .select()
          .from(ragDocuments)
          .where(and(eq(ragDocuments.collectionId, collection.id), eq(ragDocuments.filename, file.filename)))
          .limit(1);
        if (existing && existing.sha256 === file.sha256 && existing.status === 'ready') {
          rows.push(existing);
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
      return rows;
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
      const rows = await recordPages(principal, found.row, urls);
      deps.knowledge.notifyIngestion();
      return rows.map(toRagDocument);
    },

    async upload(
      principal: Principal,
      collectionId: string,
      parts: () => AsyncIterable<UploadPart>,
    ): Promise<RagDocument[]> {
      const found = await writableOne(principal, collectionId);
      const dir = uploadsDirOf(deps.dataDir, found.row.organizationId, found.row.id);
      const staged = await stageFiles(parts(), dir, { images: found.row.ocrModelId !== null });
      try {
        const rows = await record(principal, found.row, dir, staged);
        deps.knowledge.notifyIngestion();
        return rows.map(toRagDocument);
      } finally {
        await discard(staged);
      }
    },

    async list(principal: Principal, collectionId: string): Promise<RagDocument[]> {
      await deps.collections.find(principal, collectionId);
      const rows = await db
        .select()
        .from(ragDocuments)
        .where(
          and(
            eq(ragDocuments.collectionId, collectionId),
            eq(ragDocuments.organizationId, principal.organizationId),
          ),
        )
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
