import { readFile, unlink } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { MeterScope } from '@atelier/metering';
import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import type { KnowledgeDeps } from '../facade';
import { parseDocument, type ParsedDocument } from '../parse/index';
import { decodeText } from '../parse/text';
import { documentChunkHashes } from '../service/chunk-lookup';
import { syncDocumentMetadata } from '../service/document-metadata';
import type { ModelCalls } from '../service/models';
import { loadCollectionById, setDimension, type CollectionRecord } from '../service/records';
import type { SqlClient } from '../stores/sql-client';
import { contentHash, KnowledgeError, type ChunkInput, type VectorStore } from '../stores/vector-store';
import { chunkDocument, documentMetadata } from './chunk';
import { loadOcrCache } from './ocr-cache';
import { needsOcr, readByOcr } from './ocr-pages';
import { documentFields, type ClaimedDocument, type Lease } from './queue';
import { fetchWebDocument, WEB_DOCUMENT_BYTES } from './web-source';

/** What ingesting a document needs from the capability. */
export interface IngestContext {
  deps: KnowledgeDeps;
  sql: SqlClient;
  calls: ModelCalls;
  storeFor: (connector: CollectionRecord['connector']) => Promise<VectorStore>;
}

/** The row stopped being this worker's (deleted, re-uploaded, taken over): the work is dropped. */
export class LeaseLost extends Error {
  constructor() {
    super('The document is no longer this worker’s to ingest');
    this.name = 'LeaseLost';
  }
}

/** How far ingestion had come when it stopped. */
export interface IngestState {
  /** The store was found holding no chunk of the document: a failure then removes what was written. */
  firstIngestion: boolean;
  collection: CollectionRecord | null;
}

/** Where an upload waits on disk; a stored path leading outside the data directory is refused. */
export function uploadPath(dataDir: string, storagePath: string): string {
  const root = resolve(dataDir);
  const full = resolve(root, storagePath);
  const rel = relative(root, full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new KnowledgeError(422, 'invalid_storage_path', 'The uploaded file is not in the data directory.');
  }
  return full;
}

/** The metered calls of an ingestion are charged to the organization, on behalf of the uploader. */
export function ingestionScope(document: ClaimedDocument, collection: CollectionRecord): MeterScope {
  return {
    organizationId: document.organizationId,
    workspaceId: document.workspaceId,
    userId: document.uploadedBy,
    chatbotId: null,
    chatbotName: `Knowledge: ${collection.name}`,
    conversationId: null,
    storeContent: true,
  };
}

/**
 * Creates the store collection once: when the collection's dimension comes from its first embedding,
 * or (`missing`) when its store lost it.
 */
function collectionEnsurer(ctx: IngestContext, collection: CollectionRecord, store: VectorStore) {
  let ensured: Promise<void> | undefined;
  let recreated: Promise<void> | undefined;
  const create = async (dimension: number) => {
    try {
      await store.createCollection({
        name: collection.collectionName,
        dimension,
        distance: collection.distance,
        deferVectorIndex: true,
        textLanguage: collection.fullTextLanguage,
      });
    } catch (error) {
      if (!(error instanceof KnowledgeError && error.status === 409)) throw error;
    }
  };
  return (dimension: number, missing = false): Promise<void> => {
    // A store collection goes missing when its RAG collection is deleted: it is never made again then.
    if (missing) {
      return (recreated ??= (async () => {
        if (!(await loadCollectionById(ctx.sql, collection.id))) throw new LeaseLost();
        await create(dimension);
      })());
    }
    return (ensured ??= (async () => {
      if (collection.dimension !== null) return;
      await create(dimension);
      await setDimension(ctx.sql, collection.id, dimension);
      collection.dimension = dimension;
    })());
  };
}

const isMissingCollection = (error: unknown) =>
  error instanceof KnowledgeError && error.code === 'collection_not_found';

/**
 * The document parsed: a web page fetched anew, else the upload read from disk. With the html
 * splitter, an HTML document's raw page too.
 */
async function readSource(
  ctx: IngestContext,
  document: ClaimedDocument,
  collection: CollectionRecord,
  signal: AbortSignal,
): Promise<{
  parsed: ParsedDocument;
  html: string | undefined;
  source: { path: string } | { data: Uint8Array };
}> {
  const rawHtml = (parsed: ParsedDocument) => collection.splitter === 'html' && parsed.type === 'html';
  // A PDF's pictures are looked for (which decodes them) only when an OCR model will read them.
  const pdfPictures = collection.ocrModelId !== null;
  if (document.sourceUrl) {
    const page = await fetchWebDocument(ctx.deps, document.sourceUrl, signal);
    // Parsing moves a copy of the bytes to its thread: these stay for drawing scanned pages.
    const parsed = await parseDocument({ ...page, limits: { maxBytes: WEB_DOCUMENT_BYTES }, pdfPictures });
    return { parsed, html: rawHtml(parsed) ? decodeText(page.data) : undefined, source: { data: page.data } };
  }
  if (!document.storagePath) {
    throw new KnowledgeError(422, 'file_missing', 'The uploaded file is gone; upload the document again.');
  }
  const path = uploadPath(ctx.deps.dataDir, document.storagePath);
  const parsed = await parseDocument({
    path,
    filename: document.filename,
    mimeType: document.mimeType,
    limits: { maxBytes: KNOWLEDGE_LIMITS.maxDocumentBytes },
    pdfPictures,
  });
  return { parsed, html: rawHtml(parsed) ? await readFile(path, 'utf8') : undefined, source: { path } };
}

/** Why a document gave no chunk: an image, a scanned PDF or a document of pictures needs the collection's OCR model. */
function noTextDetail(parsed: ParsedDocument, collection: CollectionRecord): string {
  if (collection.ocrModelId) {
    return parsed.type === 'image' ? 'No text was found in the image.' : 'No text was found in the document.';
  }
  if (parsed.type === 'image') {
    return 'An image is read by an OCR model; choose one in the collection’s settings, then upload it again.';
  }
  if (parsed.type === 'pdf') {
    return 'No text was found in the document: a scanned PDF is read by an OCR model; choose one in the collection’s settings.';
  }
  return parsed.pictures?.length
    ? 'No text was found in the document: its pictures are read by an OCR model; choose one in the collection’s settings.'
    : 'No text was found in the document.';
}

/**
 * Ingests one claimed document: parse the upload from disk (a web page: fetched again), split with the
 * collection's splitter, embed only the chunks whose content changed since the document's last
 * ingestion (smart insertion: ids `<documentId>:<index>`, compared by content hash), upsert them batch
 * by batch with progress, delete chunks beyond the new count, then mark the row ready and remove the
 * upload.
 */
export async function ingestDocument(
  ctx: IngestContext,
  document: ClaimedDocument,
  lease: Lease,
  state: IngestState,
  signal: AbortSignal,
): Promise<void> {
  const collection = await loadCollectionById(ctx.sql, document.collectionId);
  state.collection = collection;
  if (!collection) throw new LeaseLost();
  if (!collection.embeddingsModelId) {
    throw new KnowledgeError(
      409,
      'embeddings_model_missing',
      'The collection has no embeddings model any more; choose one in its settings.',
    );
  }
  const { parsed, html, source } = await readSource(ctx, document, collection, signal);
  signal.throwIfAborted();
  const scope = ingestionScope(document, collection);
  // Scanned pages, an image, pictures: read by the collection's OCR model before any chunk is made (progress to 0.5).
  let ocr = { pages: 0, pictures: 0 };
  if (collection.ocrModelId && needsOcr(parsed)) {
    const ocrModel = await ctx.calls.target(scope, collection.ocrModelId, 'ocr');
    ocr = await readByOcr({
      calls: ctx.calls,
      scope,
      model: ocrModel,
      cache: await loadOcrCache(ctx.sql, document.id, {
        id: ocrModel.model.id,
        modelName: ocrModel.model.modelName,
      }),
      filename: document.filename,
      parsed,
      source,
      signal,
      onProgress: async (read, total) => {
        if (!(await lease.update({ progress: 0.05 + (0.45 * read) / total }))) throw new LeaseLost();
      },
    });
  }
  const pieces = await chunkDocument(parsed, collection, html);
  if (pieces.length === 0) {
    throw new KnowledgeError(422, 'no_text', noTextDetail(parsed, collection));
  }
  signal.throwIfAborted();

  // The document's own fields first: Atelier's own names (reserved for them) always win.
  const base = {
    ...document.metadata,
    document_id: document.id,
    filename: document.filename,
    ...documentMetadata(parsed),
  };
  const chunks: ChunkInput[] = pieces.map((piece, index) => ({
    id: `${document.id}:${index}`,
    content: piece.content,
    embedding: [],
    metadata: { ...base, ...piece.metadata, chunk_index: index },
  }));
  const store = await ctx.storeFor(collection.connector);
  const name = collection.collectionName;
  let existing = new Map<string, string>();
  // Only a document that stored chunks before (a re-upload, an interrupted ingestion) has any to compare.
  if (collection.dimension !== null && document.chunkCount > 0) {
    existing = await documentChunkHashes(store, name, collection.dimension, document.id, chunks.length).catch(
      (error: unknown) => {
        // A collection not made yet in its store simply holds nothing.
        if (error instanceof KnowledgeError && error.status === 404) return new Map<string, string>();
        throw error;
      },
    );
  }
  state.firstIngestion = existing.size === 0;
  const todo: ChunkInput[] = [];
  for (let i = 0; i < chunks.length; i++) {
    if (existing.get(chunks[i]!.id) !== contentHash(chunks[i]!.content)) todo.push(chunks[i]!);
    if (i % 2000 === 1999) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const skipped = chunks.length - todo.length;
  let done = skipped;
  const start = ocr.pages + ocr.pictures > 0 ? 0.5 : 0.1;
  const progressOf = () => start + ((1 - start) * done) / chunks.length;
  if (
    !(await lease.update({
      progress: progressOf(),
      chunkCount: done,
      chunksSkipped: skipped,
      ocrPages: ocr.pages,
      ocrPictures: ocr.pictures,
      type: parsed.type,
      ...(document.sourceUrl ? { sizeBytes: parsed.metadata.bytes } : {}),
    }))
  ) {
    throw new LeaseLost();
  }

  const ensure = collectionEnsurer(ctx, collection, store);
  await ctx.calls.embedTexts(
    scope,
    collection.embeddingsModelId,
    todo.map((c) => c.content),
    signal,
    async (start, vectors) => {
      await ensure(vectors[0]!.length);
      const batch = vectors.map((embedding, i) => ({ ...todo[start + i]!, embedding }));
      signal.throwIfAborted();
      await store.upsert(name, batch).catch(async (error: unknown) => {
        if (!isMissingCollection(error)) throw error;
        await ensure(vectors[0]!.length, true);
        await store.upsert(name, batch);
      });
      done += batch.length;
      // After the last batch the row is marked ready just below: no progress write in between.
      if (done === chunks.length) return;
      if (!(await lease.update({ progress: Math.min(progressOf(), 0.99), chunkCount: done }))) {
        throw new LeaseLost();
      }
    },
  );
  if (collection.dimension !== null) {
    await store.deleteWhere(name, {
      and: [
        { field: 'document_id', op: 'eq', value: document.id },
        { field: 'chunk_index', op: 'gte', value: chunks.length },
      ],
    });
  }
  // Fields edited while the chunks were written, or chunks kept from before (smart insertion): every
  // chunk is brought to the row's fields.
  const fields = await documentFields(ctx.sql, document.id);
  const edited = fields !== null && !isDeepStrictEqual(fields, document.metadata);
  if (edited || (skipped > 0 && fields && Object.keys(fields).length > 0)) {
    await syncDocumentMetadata({
      store,
      collection: name,
      documentId: document.id,
      current: () => documentFields(ctx.sql, document.id),
      stale: Object.keys(document.metadata),
    });
  }
  const finished = await lease.update({
    status: 'ready',
    progress: 1,
    chunkCount: chunks.length,
    chunksSkipped: skipped,
    error: null,
    release: true,
    clearStoragePath: true,
  });
  if (!finished) throw new LeaseLost();
  // One unlink (`rm` would look at the path twice first: two lstat calls a document); gone already is fine.
  if (document.storagePath) {
    await unlink(uploadPath(ctx.deps.dataDir, document.storagePath)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
}
