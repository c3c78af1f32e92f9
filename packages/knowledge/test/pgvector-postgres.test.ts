import { openDatabase } from '@atelier/db';
import { describe } from 'vitest';
import { createPgvectorStore } from '../src';
import { describeStoreContract } from './store-contract';
import { databaseUrl, dropSchemas, uniqueName, vectorUnavailable } from './postgres';

// The built-in store on the PostgreSQL at DATABASE_URL, in a schema of its own per run.
describe.skipIf(Boolean(vectorUnavailable))(
  `PostgreSQL with pgvector${vectorUnavailable ? ` (skipped: ${vectorUnavailable})` : ''}`,
  () => {
    describeStoreContract('built-in pgvector on PostgreSQL', async () => {
      const schema = uniqueName('kb_test');
      const database = await openDatabase({ url: databaseUrl, poolSize: 3 });
      return {
        store: createPgvectorStore(database.db, { schema }),
        cleanup: async () => {
          await database.close();
          await dropSchemas(schema);
        },
      };
    });
  },
);
