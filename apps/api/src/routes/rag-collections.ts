import multipart from '@fastify/multipart';
import {
  addWebDocumentsBody,
  createdIdAnswer,
  createRagCollectionBody,
  documentChunksAnswer,
  documentParams,
  idParams,
  KNOWLEDGE_LIMITS,
  messageBody,
  metadataFieldsAnswer,
  previewQuery,
  queryCollectionAnswer,
  queryCollectionBody,
  ragCollectionAnswer,
  ragCollectionsAnswer,
  ragDocumentAnswer,
  ragDocumentsAnswer,
  uploadDocumentsAnswer,
  updateRagCollectionBody,
  updateRagDocumentBody,
  updateRagDocumentsBody,
  workspaceQuery,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BUILDERS, principalOf } from '../plugins/auth';
import { AppError } from '../services/errors';
import type { UploadPart } from '../services/knowledge/upload-files';
import { AUTHED, errorAnswers } from './responses';

const tags = ['knowledge'];
const access = { roles: BUILDERS };

/** One upload: up to 20 files of up to 100 MB each, streamed; form fields beside them stay tiny. */
const UPLOAD_LIMITS = {
  fileSize: KNOWLEDGE_LIMITS.maxDocumentBytes,
  files: KNOWLEDGE_LIMITS.maxFilesPerUpload,
  fields: 10,
  // The `metadata` field: 20 fields of up to 500 characters, as JSON.
  fieldSize: 16 * 1024,
  fieldNameSize: 100,
  parts: KNOWLEDGE_LIMITS.maxFilesPerUpload + 10,
  headerPairs: 100,
};

const ragCollectionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const knowledge = app.services.knowledge;
  const { collections, documents } = knowledge;
  // Only these routes read multipart bodies (registered in this plugin's scope).
  // preservePath: a file of an uploaded folder keeps its path in the folder (upload-files.ts names it).
  await app.register(multipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: true, preservePath: true });

  for (const url of ['/rag_collections_all', '/rag_collections_with_partial_server']) {
    app.get(
      url,
      {
        config: { access },
        schema: {
          tags,
          summary: "A workspace's RAG collections with their document and chunk counts",
          querystring: workspaceQuery,
          response: { 200: ragCollectionsAnswer, ...errorAnswers(...AUTHED, 404) },
        },
      },
      async (request) => ({
        rag_collections: await collections.list(principalOf(request), request.query.workspace_id),
      }),
    );
  }

  app.get(
    '/rag_collections/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'A RAG collection',
        params: idParams,
        response: { 200: ragCollectionAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ rag_collection: await collections.get(principalOf(request), request.params.id) }),
  );

  app.post(
    '/rag_collections',
    {
      config: { access, rateLimitPreset: 'invoke' },
      schema: {
        tags,
        summary:
          'Create a RAG collection: in the built-in store (sized by one metered embedding of a probe text) or on an existing collection of a connector',
        body: createRagCollectionBody,
        response: { 201: createdIdAnswer, ...errorAnswers(...AUTHED, 402, 404, 409, 429, 502, 504) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ id: await collections.create(principalOf(request), request.body) }),
  );

  app.put(
    '/rag_collections/:id',
    {
      config: { access, rateLimitPreset: 'invoke' },
      schema: {
        tags,
        summary: 'Update a RAG collection (its embeddings model only while it holds no documents: 409)',
        params: idParams,
        body: updateRagCollectionBody,
        response: { 200: ragCollectionAnswer, ...errorAnswers(...AUTHED, 402, 404, 409, 429) },
      },
    },
    async (request) => ({
      rag_collection: await collections.update(principalOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/rag_collections/:id',
    {
      config: { access },
      schema: {
        tags,
        summary:
          "Delete a RAG collection: a built-in one's chunks and uploads go; an external collection's data stays",
        params: idParams,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await collections.remove(principalOf(request), request.params.id);
      return { message: 'RAG collection deleted' };
    },
  );

  app.post(
    '/rag_collections/:id/query',
    {
      config: { access, rateLimitPreset: 'invoke' },
      schema: {
        tags,
        summary:
          'Retrieve the top-k chunks for a query (metadata filter, optional rerank, hybrid and score threshold), each with its source and score',
        params: idParams,
        body: queryCollectionBody,
        response: { 200: queryCollectionAnswer, ...errorAnswers(...AUTHED, 402, 404, 429, 502, 504) },
      },
    },
    async (request) => collections.query(principalOf(request), request.params.id, request.body),
  );

  app.post(
    '/rag_collections/:id/documents',
    {
      config: { access, rateLimitPreset: 'run' },
      schema: {
        tags,
        summary:
          'Upload documents (multipart/form-data, "file" parts: up to 20 files of up to 100 MB, streamed to disk) and queue their ingestion; a file of a folder may be named by its path in the folder (policies/2024/leave.pdf); the same name again replaces the document (keeping its metadata fields). A .zip is taken as a folder: each file inside of a type Atelier reads becomes a document named by its path (policies.zip gives policies/leave.pdf; up to 1,000 documents, 1 GB expanded), the others are answered in "skipped" with why. An optional "metadata" field, a JSON object such as {"department": "HR", "year": 2024}, gives every file\'s document these fields',
        consumes: ['multipart/form-data'],
        params: idParams,
        response: { 202: uploadDocumentsAnswer, ...errorAnswers(...AUTHED, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const uploaded = await documents.upload(principalOf(request), request.params.id, () => {
        if (!request.isMultipart()) {
          throw new AppError(415, 'unsupported_media_type', 'Send the files as multipart/form-data.');
        }
        return request.parts() as AsyncIterable<UploadPart>;
      });
      return reply.status(202).send(uploaded);
    },
  );

  app.post(
    '/rag_collections/:id/documents/web',
    {
      config: { access, rateLimitPreset: 'run' },
      schema: {
        tags,
        summary:
          'Add web pages to a collection: one page by its address, or the pages of a sitemap (sitemap: true, at most max_pages, filter on their addresses); each is fetched through the SSRF guard when it is ingested, and adding it again fetches it anew',
        params: idParams,
        body: addWebDocumentsBody,
        response: { 202: ragDocumentsAnswer, ...errorAnswers(...AUTHED, 403, 404, 409, 422, 429, 502, 504) },
      },
    },
    async (request, reply) => {
      const abort = new AbortController();
      request.raw.once('close', () => abort.abort());
      const added = await documents.addFromWeb(
        principalOf(request),
        request.params.id,
        request.body,
        abort.signal,
      );
      return reply.status(202).send({ documents: added });
    },
  );

  app.get(
    '/rag_collections/:id/documents',
    {
      config: { access },
      schema: {
        tags,
        summary: "A collection's documents with their ingestion status, newest first",
        params: idParams,
        response: { 200: ragDocumentsAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ documents: await documents.list(principalOf(request), request.params.id) }),
  );

  app.get(
    '/rag_collections/:id/documents/:documentId',
    {
      config: { access },
      schema: {
        tags,
        summary: 'A document and its ingestion status and progress',
        params: documentParams,
        response: { 200: ragDocumentAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({
      document: await documents.get(principalOf(request), request.params.id, request.params.documentId),
    }),
  );

  app.get(
    '/rag_collections/:id/documents/:documentId/chunks',
    {
      config: { access },
      schema: {
        tags,
        summary:
          "A page of a document's chunks in their order (limit 10 by default, at most 100; offset 0), as its collection's store holds them: what parsing, splitting and OCR made of it",
        params: documentParams,
        querystring: previewQuery,
        response: { 200: documentChunksAnswer, ...errorAnswers(...AUTHED, 404, 502, 504) },
      },
    },
    async (request) =>
      documents.chunks(principalOf(request), request.params.id, request.params.documentId, request.query),
  );

  app.patch(
    '/rag_collections/:id/documents/:documentId',
    {
      config: { access },
      schema: {
        tags,
        summary:
          "Replace a document's own metadata fields (a field left out is removed): written on each of its chunks at once, without embedding them again, so retrieval filters can use them",
        params: documentParams,
        body: updateRagDocumentBody,
        response: { 200: ragDocumentAnswer, ...errorAnswers(...AUTHED, 404, 502, 504) },
      },
    },
    async (request) => ({
      document: await documents.update(
        principalOf(request),
        request.params.id,
        request.params.documentId,
        request.body.metadata,
      ),
    }),
  );

  app.patch(
    '/rag_collections/:id/documents',
    {
      config: { access },
      schema: {
        tags,
        summary:
          'Set and remove metadata fields on several documents at once (up to 1,000; each keeps its other fields), written on their chunks in place; all are changed or none',
        params: idParams,
        body: updateRagDocumentsBody,
        response: { 200: ragDocumentsAnswer, ...errorAnswers(...AUTHED, 404, 502, 504) },
      },
    },
    async (request) => ({
      documents: await documents.updateMany(principalOf(request), request.params.id, request.body),
    }),
  );

  app.get(
    '/rag_collections/:id/metadata_fields',
    {
      config: { access },
      schema: {
        tags,
        summary:
          "The metadata fields the collection's documents have: each with its kinds of value, how many documents have it and its 50 most frequent values",
        params: idParams,
        response: { 200: metadataFieldsAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({
      fields: await documents.metadataFields(principalOf(request), request.params.id),
    }),
  );

  app.delete(
    '/rag_collections/:id/documents/:documentId',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Delete a document and its chunks',
        params: documentParams,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await documents.remove(principalOf(request), request.params.id, request.params.documentId);
      return { message: 'Document deleted' };
    },
  );
};

export default ragCollectionsRoutes;
