import { z } from 'zod';
import { anyValue, bool, choice, defineNode, type FieldMeta, jsonObject, num, text } from '../fields';

export const knowledgeRetrieveNode = defineNode({
  type: 'knowledge_retrieve',
  label: 'nodeCatalog.nodes.knowledge_retrieve.label',
  category: 'knowledge',
  description: 'nodeCatalog.nodes.knowledge_retrieve.description',
  fields: z
    .object({
      query: text(),
      collection_id: text(),
      number_documents: num(10, 1, 100),
      filter_content: text(),
    })
    .prefault({}),
  fieldMeta: [
    { name: 'collection_id', label: 'nodeCatalog.fields.collectionId', kind: 'collection', required: true },
    { name: 'query', label: 'nodeCatalog.fields.query', kind: 'textarea', required: true },
    {
      name: 'number_documents',
      label: 'nodeCatalog.fields.numberDocuments',
      kind: 'number',
      required: false,
      min: 1,
      max: 100,
    },
    {
      name: 'filter_content',
      label: 'nodeCatalog.fields.filterContent',
      kind: 'text',
      required: false,
      help: 'nodeCatalog.help.filterContent',
    },
  ],
  outputs: ['documents', 'context'],
});

export const rerankerNode = defineNode({
  type: 'reranker',
  label: 'nodeCatalog.nodes.reranker.label',
  category: 'knowledge',
  description: 'nodeCatalog.nodes.reranker.description',
  fields: z
    .object({ query: text(), model_id: text(), top_k: num(5, 1, 100), documents: anyValue() })
    .prefault({}),
  fieldMeta: [
    {
      name: 'model_id',
      label: 'nodeCatalog.fields.modelId',
      kind: 'model',
      modelType: 'rerank',
      required: true,
    },
    { name: 'query', label: 'nodeCatalog.fields.query', kind: 'textarea', required: true },
    { name: 'documents', label: 'nodeCatalog.fields.documents', kind: 'text', required: true },
    { name: 'top_k', label: 'nodeCatalog.fields.topK', kind: 'number', required: false, min: 1, max: 100 },
  ],
  outputs: ['documents'],
});

const storeModes = ['collection', 'custom'] as const;
const storeTargetMeta: FieldMeta[] = [
  {
    name: 'mode',
    label: 'nodeCatalog.fields.mode',
    kind: 'select',
    required: false,
    options: [
      { value: 'collection', label: 'nodeCatalog.options.mode.collection' },
      { value: 'custom', label: 'nodeCatalog.options.mode.custom' },
    ],
  },
  {
    name: 'collection_id',
    label: 'nodeCatalog.fields.collectionId',
    kind: 'collection',
    required: true,
    visibleWhen: { field: 'mode', equals: 'collection' },
  },
  {
    name: 'rag_connector_id',
    label: 'nodeCatalog.fields.ragConnectorId',
    kind: 'connector',
    required: true,
    visibleWhen: { field: 'mode', equals: 'custom' },
  },
  {
    name: 'collection_name',
    label: 'nodeCatalog.fields.collectionName',
    kind: 'text',
    required: true,
    visibleWhen: { field: 'mode', equals: 'custom' },
  },
];

export const vectorStoreInsertNode = defineNode({
  type: 'vector_store_insert',
  label: 'nodeCatalog.nodes.vector_store_insert.label',
  category: 'knowledge',
  description: 'nodeCatalog.nodes.vector_store_insert.description',
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
    { name: 'documents', label: 'nodeCatalog.fields.documents', kind: 'text', required: true },
    ...storeTargetMeta,
    {
      name: 'embeddings_model_id',
      label: 'nodeCatalog.fields.embeddingsModelId',
      kind: 'model',
      modelType: 'text-embeddings',
      required: true,
      visibleWhen: { field: 'mode', equals: 'custom' },
    },
    {
      name: 'smart_insertion',
      label: 'nodeCatalog.fields.smartInsertion',
      kind: 'boolean',
      required: false,
      help: 'nodeCatalog.help.smartInsertion',
    },
  ],
  outputs: ['inserted', 'collection_id'],
});

export const vectorStoreDeleteNode = defineNode({
  type: 'vector_store_delete',
  label: 'nodeCatalog.nodes.vector_store_delete.label',
  category: 'knowledge',
  description: 'nodeCatalog.nodes.vector_store_delete.description',
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
      label: 'nodeCatalog.fields.deletionConditionExpr',
      kind: 'text',
      required: true,
      placeholder: 'source == "https://example.com/page"',
    },
    ...storeTargetMeta,
    {
      name: 'continue_on_failure',
      label: 'nodeCatalog.fields.continueOnFailure',
      kind: 'boolean',
      required: false,
      help: 'nodeCatalog.help.continueOnFailure',
    },
  ],
  outputs: ['deleted', 'error'],
});

export const metadataExtractionNode = defineNode({
  type: 'metadata_extraction',
  label: 'nodeCatalog.nodes.metadata_extraction.label',
  category: 'knowledge',
  description: 'nodeCatalog.nodes.metadata_extraction.description',
  fields: z.object({ document: anyValue(), metadata_field: text() }).prefault({}),
  fieldMeta: [
    { name: 'document', label: 'nodeCatalog.fields.document', kind: 'text', required: true },
    {
      name: 'metadata_field',
      label: 'nodeCatalog.fields.metadataField',
      kind: 'text',
      required: true,
      help: 'nodeCatalog.help.metadataField',
    },
  ],
  outputs: ['value'],
});

export const metadataUpdateNode = defineNode({
  type: 'metadata_update',
  label: 'nodeCatalog.nodes.metadata_update.label',
  category: 'knowledge',
  description: 'nodeCatalog.nodes.metadata_update.description',
  fields: z.object({ documents: anyValue(), metadata: jsonObject(), overwrite: bool(true) }).prefault({}),
  fieldMeta: [
    { name: 'documents', label: 'nodeCatalog.fields.documents', kind: 'text', required: true },
    {
      name: 'metadata',
      label: 'nodeCatalog.fields.metadata',
      kind: 'json',
      required: true,
      help: 'nodeCatalog.help.metadata',
    },
    { name: 'overwrite', label: 'nodeCatalog.fields.overwrite', kind: 'boolean', required: false },
  ],
  outputs: ['documents'],
});
