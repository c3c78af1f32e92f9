import { openDatabase } from '@atelier/db';
import {
  createPgvectorStore,
  toSqlClient,
  type PgvectorStore,
  type PgvectorStoreOptions,
  type SqlClient,
} from '../src';
import { databaseUrl, dropSchemas, uniqueName } from './postgres';

/** A database for the built-in store's own tests, with stores over it. */
export interface StoreSubject {
  sql: SqlClient;
  schema: string;
  /** A store over the subject's database; each call is another instance (as another process has). */
  store(options?: PgvectorStoreOptions): PgvectorStore;
  cleanup(): Promise<void>;
}

/** A fresh embedded PGlite (schema `kb`). */
export async function pgliteSubject(): Promise<StoreSubject> {
  const database = await openDatabase({});
  return {
    sql: toSqlClient(database.db),
    schema: 'kb',
    store: (options) => createPgvectorStore(database.db, options),
    cleanup: () => database.close(),
  };
}

/** The PostgreSQL at DATABASE_URL, in a schema of its own (`prefix_…`, dropped by cleanup). */
export async function postgresSubject(prefix: string): Promise<StoreSubject> {
  const schema = uniqueName(prefix);
  const database = await openDatabase({ url: databaseUrl, poolSize: 2 });
  return {
    sql: toSqlClient(database.db),
    schema,
    store: (options) => createPgvectorStore(database.db, { ...options, schema }),
    cleanup: async () => {
      await database.close();
      await dropSchemas(schema);
    },
  };
}

/** The definition of a collection's HNSW index ('' when it has none). */
export async function hnswIndexDef(subject: StoreSubject, table: string): Promise<string> {
  const [row] = await subject.sql.query<{ def: string }>(
    "SELECT indexdef AS def FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexname LIKE '%_hnsw'",
    [subject.schema, table],
  );
  return row?.def ?? '';
}
