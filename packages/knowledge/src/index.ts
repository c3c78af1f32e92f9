// The knowledge capability: vector stores behind one interface, document parsing, ingestion, retrieval.
export * from './parse/index';
