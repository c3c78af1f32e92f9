// The knowledge capability: vector stores behind one interface, document parsing, ingestion, retrieval.
export * from './stores/vector-store';
export * from './stores/pgvector-store';
export { bitSketchOf, seeded, SKETCH_BITS, sketchOf, type Sketch } from './stores/sketch';
export * from './stores/qdrant-store';
export { compileQdrantFilter, pointId, type QdrantFilter } from './stores/qdrant-filter';
export type { QueryFn, SqlClient, SqlSource } from './stores/sql-client';
export { toSqlClient } from './stores/sql-client';
export * from './parse/index';
export type * from './facade';
export { createKnowledge, type KnowledgeOptions } from './service/knowledge';
export { STORE_FACTORIES, type StoreFactory } from './service/store-factory';
export { parseCondition, parseFilterText } from './engine/condition';
export { reciprocalRankFusion, RRF_K } from './retrieve/fuse';
export { searchesFor } from './retrieve/follow-up';
export {
  answerSource,
  mergeSources,
  sourcesOfDocuments,
  MAX_ANSWER_SOURCES,
  SOURCE_EXCERPT_CHARS,
} from './retrieve/answer-sources';
export { type WebSource, WEB_DOCUMENT_BYTES } from './ingest/web-source';
export { documentChunks } from './service/chunk-lookup';
export { syncDocumentMetadata, type DocumentFields } from './service/document-metadata';
