import { z } from 'zod';
import { name, uuid } from './common';
import {
  collectionSplitters,
  connectorKinds,
  documentStatuses,
  fullTextLanguages,
  KNOWLEDGE_LIMITS,
  RESERVED_METADATA_KEYS,
  toolTypes,
  vectorDistances,
} from './constants';

export const connectorKind = z.enum(connectorKinds);
export const vectorDistance = z.enum(vectorDistances);
export const collectionSplitter = z.enum(collectionSplitters);
export const fullTextLanguage = z.enum(fullTextLanguages);
export const documentStatus = z.enum(documentStatuses);
export const toolType = z.enum(toolTypes);

const description = z.string().trim().max(2000, { error: 'must be at most 2000 characters' });
const settings = z.record(z.string().max(200), z.string().max(2000));

// ---------------------------------------------------------------------------------------------
// Connectors

/** A setting a kind of connector or tool asks for; `secret` ones are sealed and never shown again. */
export const settingField = z.object({
  name: z.string(),
  label: z.string(),
  required: z.boolean(),
  secret: z.boolean(),
  placeholder: z.string().nullable(),
});
export type SettingField = z.infer<typeof settingField>;

/** What a kind of configured item (a connector, a tool) is and the settings it asks for. */
const itemTypeInfo = z.object({ label: z.string(), description: z.string(), fields: z.array(settingField) });

/** A configured item (a connector, a tool) as the API shows it: settings without secrets, a masked hint of the secret. */
const configuredItem = z.object({
  workspace_id: z.string(),
  name: z.string(),
  description: z.string(),
  settings: z.record(z.string(), z.string()),
  secret_hint: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** Only what is given changes; a secret setting left out keeps the stored secret. */
const updateItemBody = z
  .object({ name: name().optional(), description: description.optional(), settings: settings.optional() })
  .strict();

export const supportedConnector = itemTypeInfo.extend({
  kind: connectorKind,
  /** false for the built-in store: every workspace has exactly one, created for it. */
  creatable: z.boolean(),
  /** Whether Atelier can write into its collections (ingest documents). */
  writable: z.boolean(),
});
export type SupportedConnector = z.infer<typeof supportedConnector>;
export const supportedConnectorsAnswer = z.object({ connectors: z.array(supportedConnector) });

export const connector = configuredItem.extend({ id: z.string(), kind: connectorKind });
export type Connector = z.infer<typeof connector>;
export const connectorsAnswer = z.object({ connectors: z.array(connector) });
export const connectorAnswer = z.object({ connector });

export const createConnectorBody = z
  .object({
    workspace_id: uuid,
    name: name(),
    kind: z.enum(['pgvector', 'qdrant']),
    description: description.optional(),
    /** For pgvector: `url` (postgres://…, credentials taken out and sealed), optional `schema`. For qdrant: `url`, optional `api_key` (sealed). */
    settings: settings.default({}),
  })
  .strict();
export type CreateConnectorBody = z.infer<typeof createConnectorBody>;
export const updateConnectorBody = updateItemBody;
export type UpdateConnectorBody = z.infer<typeof updateConnectorBody>;

export const connectorCollection = z.object({
  name: z.string(),
  description: z.string(),
  dimension: z.number().int().nullable(),
  distance: vectorDistance.nullable(),
  writable: z.boolean(),
});
export type ConnectorCollection = z.infer<typeof connectorCollection>;
export const connectorCollectionsAnswer = z.object({ collections: z.array(connectorCollection) });

export const collectionMetadataAnswer = z.object({
  name: z.string(),
  dimension: z.number().int(),
  distance: vectorDistance,
  count: z.number().int(),
  metadata_keys: z.array(z.string()),
  writable: z.boolean(),
});
export type CollectionMetadata = z.infer<typeof collectionMetadataAnswer>;

export const previewQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(KNOWLEDGE_LIMITS.previewMaxLimit).default(10),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();
export const previewRow = z.object({
  id: z.string(),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()),
});
export type PreviewRow = z.infer<typeof previewRow>;
export const previewAnswer = z.object({
  rows: z.array(previewRow),
  limit: z.number().int(),
  offset: z.number().int(),
});
export const connectorCollectionParams = z.object({ id: uuid, name: z.string().min(1).max(200) }).strict();

// ---------------------------------------------------------------------------------------------
// RAG collections

export const ragCollection = z.object({
  id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  description: z.string(),
  connector_id: z.string(),
  connector_kind: connectorKind,
  collection_name: z.string(),
  embeddings_model_id: z.string().nullable(),
  dimension: z.number().int().nullable(),
  distance: vectorDistance,
  splitter: collectionSplitter,
  chunk_size: z.number().int(),
  chunk_overlap: z.number().int(),
  top_k: z.number().int(),
  score_threshold: z.number().nullable(),
  rerank_model_id: z.string().nullable(),
  /** The OCR model that reads PDF pages without text (scans); null: such pages are left out. */
  ocr_model_id: z.string().nullable(),
  hybrid: z.boolean(),
  /**
   * The language full-text (hybrid) search reads the chunks in: stemming and stop words (`french`:
   * "voyage" finds "voyages"); `simple`: any language, words as written. Built-in store only.
   */
  full_text_language: fullTextLanguage,
  /** false for a read-only external collection: no uploads. */
  writable: z.boolean(),
  document_count: z.number().int(),
  chunk_count: z.number().int(),
  /**
   * Built-in store: whether vector searches are ready. The vector index is built once an ingestion is
   * written; until then searches are exact (slower on large collections). On the embedded database a
   * collection of up to 5,000 chunks has no index and is ready once it holds a chunk (exact searches), as
   * is one of more than 4,000 dimensions, which no pgvector index takes.
   * null: the connector indexes by itself.
   */
  vector_indexed: z.boolean().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RagCollection = z.infer<typeof ragCollection>;
export const ragCollectionsAnswer = z.object({ rag_collections: z.array(ragCollection) });
export const ragCollectionAnswer = z.object({ rag_collection: ragCollection });

const chunkSize = z.number().int().min(50).max(20_000);
const chunkOverlap = z.number().int().min(0).max(10_000);
const topK = z.number().int().min(1).max(KNOWLEDGE_LIMITS.maxTopK);
const threshold = z.number().min(-1).max(1).nullable();

export const createRagCollectionBody = z
  .object({
    workspace_id: uuid,
    name: name(),
    description: description.optional(),
    /** Omitted: the workspace's built-in store. */
    connector_id: uuid.optional(),
    /** An existing collection of the connector; omitted for the built-in store (a new one is made). */
    collection_name: z.string().min(1).max(200).optional(),
    embeddings_model_id: uuid,
    distance: vectorDistance.optional(),
    splitter: collectionSplitter.optional(),
    chunk_size: chunkSize.optional(),
    chunk_overlap: chunkOverlap.optional(),
    top_k: topK.optional(),
    score_threshold: threshold.optional(),
    rerank_model_id: uuid.nullable().optional(),
    ocr_model_id: uuid.nullable().optional(),
    hybrid: z.boolean().optional(),
    full_text_language: fullTextLanguage.optional(),
  })
  .strict();
export type CreateRagCollectionBody = z.infer<typeof createRagCollectionBody>;
export const updateRagCollectionBody = z
  .object({
    name: name().optional(),
    description: description.optional(),
    /** Changing it is refused (409) once documents are stored: their vectors came from the old model. */
    embeddings_model_id: uuid.optional(),
    splitter: collectionSplitter.optional(),
    chunk_size: chunkSize.optional(),
    chunk_overlap: chunkOverlap.optional(),
    top_k: topK.optional(),
    score_threshold: threshold.optional(),
    rerank_model_id: uuid.nullable().optional(),
    ocr_model_id: uuid.nullable().optional(),
    hybrid: z.boolean().optional(),
    /** Changing it is refused (409) once documents are stored: their words were read in the old one. */
    full_text_language: fullTextLanguage.optional(),
  })
  .strict();
export type UpdateRagCollectionBody = z.infer<typeof updateRagCollectionBody>;

// ---------------------------------------------------------------------------------------------
// Documents

const reserved = new Set(RESERVED_METADATA_KEYS);
/**
 * A document's own metadata field name: letters, digits, spaces, `_` and `-` (no dots: a filter's
 * dotted field is a path), not a name Atelier writes itself (RESERVED_METADATA_KEYS).
 */
export const documentMetadataKey = z
  .string()
  .trim()
  .min(1, { error: 'a field needs a name' })
  .max(KNOWLEDGE_LIMITS.maxMetadataKeyChars, {
    error: `a field name is at most ${KNOWLEDGE_LIMITS.maxMetadataKeyChars} characters`,
  })
  .regex(/^[\p{L}\p{N}_][\p{L}\p{N}_ -]*$/u, {
    error: 'a field name holds letters, digits, spaces, "_" and "-" only',
  })
  .refine((key) => !reserved.has(key.toLowerCase()), {
    error: (issue) => `"${String(issue.input)}" is a name Atelier gives its own metadata; choose another`,
  });
export const documentMetadataValue = z.union([
  z
    .string()
    .trim()
    .min(1, { error: 'a field needs a value (remove the field instead)' })
    .max(KNOWLEDGE_LIMITS.maxMetadataValueChars, {
      error: `a value is at most ${KNOWLEDGE_LIMITS.maxMetadataValueChars} characters`,
    }),
  z.number().finite(),
  z.boolean(),
]);
/**
 * A document's own metadata (`{"department": "HR", "year": 2024}`): written on each of its chunks, so
 * retrieval can be filtered by it; at most 20 fields.
 */
export const documentMetadata = z
  .record(z.string(), documentMetadataValue)
  .superRefine((fields, ctx) => {
    const keys = Object.keys(fields);
    if (keys.length > KNOWLEDGE_LIMITS.maxDocumentMetadataFields) {
      ctx.addIssue({
        code: 'custom',
        message: `a document has at most ${KNOWLEDGE_LIMITS.maxDocumentMetadataFields} metadata fields`,
      });
    }
    // Each name checked here, so its own reason is answered (a record's key schema reports only "Invalid key").
    for (const key of keys) {
      const checked = documentMetadataKey.safeParse(key);
      if (!checked.success)
        ctx.addIssue({ code: 'custom', message: checked.error.issues[0]!.message, path: [key] });
    }
  })
  .transform((fields) =>
    Object.fromEntries(Object.entries(fields).map(([key, value]) => [key.trim(), value])),
  );
export type DocumentMetadata = z.infer<typeof documentMetadata>;

export const ragDocument = z.object({
  id: z.string(),
  collection_id: z.string(),
  filename: z.string(),
  /** A web page added by its address (fetched again at each ingestion); null for an uploaded file. */
  source_url: z.string().nullable(),
  type: z.string().nullable(),
  size_bytes: z.number().int(),
  status: documentStatus,
  /** 0 to 1. */
  progress: z.number(),
  chunk_count: z.number().int(),
  chunks_skipped: z.number().int(),
  /** Pages read whole by the collection's OCR model at the last ingestion: a PDF's scanned pages, an image (1). */
  ocr_pages: z.number().int(),
  /** Pictures inside the document (on a PDF's pages, in a Word, PowerPoint or OpenDocument file) the OCR model read. */
  ocr_pictures: z.number().int(),
  /** The document's own metadata fields, written on each of its chunks (filters can use them). */
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RagDocument = z.infer<typeof ragDocument>;
export const ragDocumentsAnswer = z.object({ documents: z.array(ragDocument) });
/** Why an uploaded archive's file was not taken. */
export const skippedFileCodes = [
  'unsupported_type',
  'ocr_model_missing',
  'nested_archive',
  'duplicate_name',
  'file_too_large',
  'damaged',
  'invalid_filename',
] as const;
/** A file of an uploaded archive that was not taken, and why: a code, and the same in words. */
export const skippedFile = z.object({
  filename: z.string(),
  code: z.enum(skippedFileCodes),
  detail: z.string(),
});
export type SkippedFile = z.infer<typeof skippedFile>;
/** An upload's answer: the documents queued, and the files of its archives (.zip) that were not taken. */
export const uploadDocumentsAnswer = ragDocumentsAnswer.extend({ skipped: z.array(skippedFile) });
export type UploadDocumentsAnswer = z.infer<typeof uploadDocumentsAnswer>;
export const ragDocumentAnswer = z.object({ document: ragDocument });
export const documentParams = z.object({ id: uuid, documentId: uuid }).strict();
/** A document's metadata replaced as a whole (a field left out is removed); its chunks are updated, not embedded again. */
export const updateRagDocumentBody = z.object({ metadata: documentMetadata }).strict();
export type UpdateRagDocumentBody = z.infer<typeof updateRagDocumentBody>;
/** Fields set on several documents at once, and fields removed from them (each keeps its others). */
export const updateRagDocumentsBody = z
  .object({
    document_ids: z.array(uuid).min(1).max(KNOWLEDGE_LIMITS.maxBulkDocuments),
    set: documentMetadata.optional(),
    unset: z.array(z.string().trim().min(1).max(KNOWLEDGE_LIMITS.maxMetadataKeyChars)).max(50).optional(),
  })
  .strict()
  .refine((b) => Object.keys(b.set ?? {}).length > 0 || (b.unset ?? []).length > 0, {
    error: 'give fields to set or to remove',
  });
export type UpdateRagDocumentsBody = z.infer<typeof updateRagDocumentsBody>;

/** A metadata field the collection's documents have: its name, kind and most frequent values. */
export const metadataField = z.object({
  key: z.string(),
  /** The kinds of value it holds across documents (usually one). */
  types: z.array(z.enum(['string', 'number', 'boolean'])),
  /** Documents having the field. */
  documents: z.number().int(),
  /** Its most frequent values (at most 50), most frequent first, with how many documents have each. */
  values: z.array(
    z.object({ value: z.union([z.string(), z.number(), z.boolean()]), documents: z.number().int() }),
  ),
});
export type MetadataField = z.infer<typeof metadataField>;
export const metadataFieldsAnswer = z.object({ fields: z.array(metadataField) });
export type MetadataFieldsAnswer = z.infer<typeof metadataFieldsAnswer>;
/**
 * A page of a document's chunks in their order (`metadata.chunk_index`), as its collection's store
 * holds them: what the parser, the splitter and OCR made of it. `total`: the document's chunk count.
 */
export const documentChunksAnswer = z.object({
  chunks: z.array(previewRow),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type DocumentChunksAnswer = z.infer<typeof documentChunksAnswer>;

/** Pages added to a collection from the web: one page, or the pages of a sitemap. */
export const addWebDocumentsBody = z
  .object({
    url: z.string().trim().min(1).max(2048),
    /** `url` is a sitemap (or a sitemap index): its pages are added. */
    sitemap: z.boolean().optional(),
    /** With `sitemap`: at most this many pages (default 50). */
    max_pages: z.number().int().min(1).max(KNOWLEDGE_LIMITS.maxWebPages).optional(),
    /** With `sitemap`: only pages whose address contains one of these (`*` makes a glob of the whole URL). */
    filter: z.array(z.string().trim().min(1).max(500)).max(20).optional(),
    /** The pages' own metadata fields (a page added again keeps its own unless these are given). */
    metadata: documentMetadata.optional(),
  })
  .strict();
export type AddWebDocumentsBody = z.infer<typeof addWebDocumentsBody>;

// ---------------------------------------------------------------------------------------------
// Retrieval

/** The metadata filter language (see @atelier/knowledge): a condition, or and/or of filters. */
export type MetadataFilterInput =
  | { field: string; op: 'eq' | 'ne' | 'in' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains'; value: unknown }
  | { and: MetadataFilterInput[] }
  | { or: MetadataFilterInput[] };
export const metadataFilter: z.ZodType<MetadataFilterInput> = z.lazy(() =>
  z.union([
    z
      .object({
        field: z.string().min(1).max(256),
        op: z.enum(['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'contains']),
        value: z.unknown(),
      })
      .strict(),
    z.object({ and: z.array(metadataFilter).min(1).max(50) }).strict(),
    z.object({ or: z.array(metadataFilter).min(1).max(50) }).strict(),
  ]),
);

export const queryCollectionBody = z
  .object({
    query: z.string().trim().min(1).max(KNOWLEDGE_LIMITS.maxQueryChars),
    /** Defaults to the collection's top_k. */
    top_k: topK.optional(),
    filter: metadataFilter.optional(),
    /** Defaults to whether the collection has a rerank model. */
    rerank: z.boolean().optional(),
    score_threshold: threshold.optional(),
    /** Vector and full-text search fused by reciprocal rank; defaults to the collection's setting. */
    hybrid: z.boolean().optional(),
  })
  .strict();
export type QueryCollectionBody = z.infer<typeof queryCollectionBody>;

export const retrievedChunk = z.object({
  id: z.string(),
  content: z.string(),
  score: z.number(),
  metadata: z.record(z.string(), z.unknown()),
  /** Where it came from; document fields are null for chunks not uploaded through Atelier. */
  source: z.object({
    collection_id: z.string(),
    document_id: z.string().nullable(),
    filename: z.string().nullable(),
    chunk_index: z.number().int().nullable(),
  }),
});
export type RetrievedChunk = z.infer<typeof retrievedChunk>;
export const queryCollectionAnswer = z.object({
  documents: z.array(retrievedChunk),
  took_ms: z.number(),
  reranked: z.boolean(),
  hybrid: z.boolean(),
});
export type QueryCollectionAnswer = z.infer<typeof queryCollectionAnswer>;

// ---------------------------------------------------------------------------------------------
// Tools

export const toolTypeInfo = itemTypeInfo.extend({ type: toolType });
export type ToolTypeInfo = z.infer<typeof toolTypeInfo>;
export const toolTypesAnswer = z.object({ data: z.array(toolTypeInfo) });

export const tool = configuredItem.extend({ tool_id: z.string(), type: toolType });
export type Tool = z.infer<typeof tool>;
export const toolsAnswer = z.object({ data: z.array(tool) });
export const toolAnswer = z.object({ data: tool });
export const createToolBody = z
  .object({
    workspace_id: uuid,
    name: name(),
    type: toolType,
    description: description.optional(),
    settings: settings.default({}),
  })
  .strict();
export type CreateToolBody = z.infer<typeof createToolBody>;
export const updateToolBody = updateItemBody;
export type UpdateToolBody = z.infer<typeof updateToolBody>;
export const createToolAnswer = z.object({ tool_id: z.string() });
export const createdIdAnswer = z.object({ id: z.string() });
