import { openDatabase, type Database } from '@atelier/db';
import { createPgvectorStore } from '../src';
import { describeStoreContract } from './store-contract';

// The built-in store on the embedded PGlite with its vector extension, whatever DATABASE_URL says.
describeStoreContract('built-in pgvector on PGlite', async () => {
  const database: Database = await openDatabase({});
  return { store: createPgvectorStore(database.db), cleanup: () => database.close() };
});
