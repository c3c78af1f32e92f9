import { z } from 'zod';
import { anyValue, bool, choice, defineNode, type FieldMeta, jsonObject, num, text } from '../fields';

export const knowledgeRetrieveNode = defineNode({
  type: 'knowledge_retrieve',
  label: 'Knowledge retrieve',
  category: 'knowledge',
  description: 'Finds the passages of a knowledge collection closest to a query.',
  fields: z
    .object({
      query: text(),
      collection_id: text(),
      number_documents: num(10, 1, 100),
      filter_content: text(),
    })
    .prefault({}),
  fieldMeta: [
    { name: 'collection_id', label: 'Collection', kind: 'collection', required: true },
    { name: 'query', label: 'Query', kind: 'textarea', required: true },
    { name: 'number_documents', label: 'Documents', kind: 'number', required: false, min: 1, max: 100 },
    {
      name: 'filter_content',
      label: 'Metadata filter',
      kind: 'text',
      required: false,
      help: 'Keep only passages whose metadata match this expression.',
    },
  ],
  outputs: ['documents', 'context'],
});

export const rerankerNode = defineNode({
  type: 'reranker',
  label: 'Reranker',
  category: 'knowledge',
  description: 'Orders documents by relevance to a query with a rerank model and keeps the best.',
  fields: z
    .object({ query: text(), model_id: text(), top_k: num(5, 1, 100), documents: anyValue() })
    .prefault({}),
  fieldMeta: [
    { name: 'model_id', label: 'Model', kind: 'model', modelType: 'rerank', required: true },
    { name: 'query', label: 'Query', kind: 'textarea', required: true },
    { name: 'documents', label: 'Documents', kind: 'text', required: true },
    { name: 'top_k', label: 'Keep', kind: 'number', required: false, min: 1, max: 100 },
  ],
  outputs: ['documents'],
});

const storeModes = ['collection', 'custom'] as const;
const storeTargetMeta: FieldMeta[] = [
  {
    name: 'mode',
    label: 'Store in',
    kind: 'select',
    required: false,
    options: [
      { value: 'collection', label: 'An existing collection' },
      { value: 'custom', label: 'A collection of a connector, by name' },
    ],
  },
  {
    name: 'collection_id',
    label: 'Collection',
    kind: 'collection',
    required: true,
    visibleWhen: { field: 'mode', equals: 'collection' },
  },
  {
    name: 'rag_connector_id',
    label: 'Connector',
    kind: 'connector',
    required: true,
    visibleWhen: { field: 'mode', equals: 'custom' },
  },
  {
    name: 'collection_name',
    label: 'Collection name',
    kind: 'text',
    required: true,
    visibleWhen: { field: 'mode', equals: 'custom' },
  },
];

export const vectorStoreInsertNode = defineNode({
  type: 'vector_store_insert',
  label: 'Vector store insert',
  category: 'knowledge',
  description: 'Embeds documents and stores them in a collection.',
  fields: z
    .object({
      documents: anyValue(),
      mode: choice(storeModes, 'collection'),
      collection_id: text(),
      rag_connector_id: text(),
      embeddings_model_id: text(),
      collection_name: text(),
      smart_insertion: bool(false),
    })
    .prefault({}),
  fieldMeta: [
    { name: 'documents', label: 'Documents', kind: 'text', required: true },
    ...storeTargetMeta,
    {
      name: 'embeddings_model_id',
      label: 'Embeddings model',
      kind: 'model',
      modelType: 'text-embeddings',
      required: true,
      visibleWhen: { field: 'mode', equals: 'custom' },
    },
    {
      name: 'smart_insertion',
      label: 'Smart insertion',
      kind: 'boolean',
      required: false,
      help: 'Skip documents whose content is already stored.',
    },
  ],
  outputs: ['inserted', 'collection_id'],
});

export const vectorStoreDeleteNode = defineNode({
  type: 'vector_store_delete',
  label: 'Vector store record delete',
  category: 'knowledge',
  description: 'Deletes the records of a collection that match a condition on their metadata.',
  fields: z
    .object({
      deletion_condition_expr: text(),
      mode: choice(storeModes, 'collection'),
      collection_id: text(),
      rag_connector_id: text(),
      collection_name: text(),
      continue_on_failure: bool(false),
    })
    .prefault({}),
  fieldMeta: [
    {
      name: 'deletion_condition_expr',
      label: 'Delete records where',
      kind: 'text',
      required: true,
      placeholder: 'source == "https://example.com/page"',
    },
    ...storeTargetMeta,
    {
      name: 'continue_on_failure',
      label: 'Continue on failure',
      kind: 'boolean',
      required: false,
      help: 'A failed deletion reports zero deleted records instead of failing the node.',
    },
  ],
  outputs: ['deleted', 'error'],
});

export const metadataExtractionNode = defineNode({
  type: 'metadata_extraction',
  label: 'Document metadata field extraction',
  category: 'knowledge',
  description: "Reads one field of a document's metadata (or of each document of a list).",
  fields: z.object({ document: anyValue(), metadata_field: text() }).prefault({}),
  fieldMeta: [
    { name: 'document', label: 'Document(s)', kind: 'text', required: true },
    {
      name: 'metadata_field',
      label: 'Metadata field',
      kind: 'text',
      required: true,
      help: 'A key, or a dotted path such as author.name.',
    },
  ],
  outputs: ['value'],
});

export const metadataUpdateNode = defineNode({
  type: 'metadata_update',
  label: 'Document metadata update',
  category: 'knowledge',
  description: 'Sets metadata fields on documents.',
  fields: z.object({ documents: anyValue(), metadata: jsonObject(), overwrite: bool(true) }).prefault({}),
  fieldMeta: [
    { name: 'documents', label: 'Documents', kind: 'text', required: true },
    {
      name: 'metadata',
      label: 'Metadata',
      kind: 'json',
      required: true,
      help: 'An object of values to set.',
    },
    { name: 'overwrite', label: 'Overwrite existing values', kind: 'boolean', required: false },
  ],
  outputs: ['documents'],
});
