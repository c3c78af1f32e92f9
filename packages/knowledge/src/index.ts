// The knowledge capability: vector stores behind one interface, document parsing, ingestion, retrieval.
export * from './stores/vector-store';
export * from './stores/pgvector-store';
export type { QueryFn, SqlClient, SqlSource } from './stores/sql-client';
export { toSqlClient } from './stores/sql-client';
export * from './parse/index';
