import { openDatabase } from '@atelier/db';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgvectorStore, toSqlClient, type PgvectorStore } from '../src';
import { databaseUrl, dropSchemas, uniqueName, vectorUnavailable } from './postgres';
import { randomVector, seeded } from './store-contract';

const DIMENSION = 8;
/**
 * The stores' breadth: the searches' top-100 asks for no more (4 x 100), so they are not the wider ones
 * that run in a transaction of their own (see pgvector-index.test.ts).
 */
const BREADTH = 400;

interface Subject {
  store: PgvectorStore;
  /** Runs a statement on the store's connection's session. */
  onSession(text: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** An unfiltered search: one statement on a connection keeping the HNSW breadth, checked by its rows. */
function describeSessionSearch(name: string, makeSubject: () => Promise<Subject>): void {
  describe(`pgvector unfiltered search with the breadth kept by the session: ${name}`, () => {
    let subject: Subject;
    const query = { vector: randomVector(seeded(3), DIMENSION), topK: 100 };
    beforeAll(async () => {
      subject = await makeSubject();
      const random = seeded(5);
      await subject.store.createCollection({ name: 'session', dimension: DIMENSION });
      await subject.store.bulkLoad('session', [
        Array.from({ length: 1_000 }, (_, i) => ({
          id: `s${i}`,
          content: `chunk ${i}`,
          embedding: randomVector(random, DIMENSION),
        })),
      ]);
      expect(await subject.store.vectorSearchReady('session')).toBe(true);
    }, 60_000);
    afterAll(() => subject?.cleanup());

    it('sets the breadth once, then searches in one statement and no transaction', async () => {
      // At the default breadth (40) the HNSW scan would answer 40 rows at most.
      expect(await subject.store.query('session', query)).toHaveLength(100);
      const before = sent.length;
      const hits = await subject.store.query('session', query);
      expect(hits).toHaveLength(100);
      const statements = sent.slice(before);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/^SELECT \*, current_setting\('hnsw\.ef_search'/);
    });

    it('searches again with the breadth local to a transaction when the session lost it', async () => {
      await subject.onSession('SET hnsw.ef_search = 40');
      const before = sent.length;
      expect(await subject.store.query('session', query)).toHaveLength(100);
      expect(sent.slice(before).some((text) => text.startsWith('BEGIN READ ONLY'))).toBe(true);
      // The connection's breadth is set again: the next search is back to one statement after it.
      const after = sent.length;
      expect(await subject.store.query('session', query)).toHaveLength(100);
      const next = sent.slice(after);
      expect(next).toHaveLength(2);
      expect(next[0]).toMatch(/^SELECT set_config/);
      expect(next[1]).toMatch(/^SELECT \*, current_setting\('hnsw\.ef_search'/);
    });
  });
}

/** What every connection is sent, in order (the embedded pool's connections exist before a test can listen). */
const sent: string[] = [];
const send = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  sent.push(typeof first === 'string' ? first : String((first as { text?: string }).text));
  return send.apply(this, args);
} as typeof pg.Client.prototype.query;

describeSessionSearch('embedded PGlite in its process (its connections share one session)', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'kb-session-'));
  const database = await openDatabase({ dataDir, embedded: 'process' });
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  return {
    store: createPgvectorStore(database.db, { efSearch: BREADTH }),
    onSession: async (text) => void (await pool.query(text)),
    cleanup: async () => {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});

describe.skipIf(Boolean(vectorUnavailable))(
  `PostgreSQL with pgvector${vectorUnavailable ? ` (skipped: ${vectorUnavailable})` : ''}`,
  () => {
    describeSessionSearch('PostgreSQL (one connection)', async () => {
      const schema = uniqueName('kb_session');
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      return {
        store: createPgvectorStore(toSqlClient(pool), { schema, efSearch: BREADTH }),
        onSession: async (text) => void (await pool.query(text)),
        cleanup: async () => {
          await pool.end();
          await dropSchemas(schema);
        },
      };
    });
  },
);
