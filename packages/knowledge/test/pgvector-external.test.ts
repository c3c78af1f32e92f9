import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExternalPgvectorStore, type PgvectorStore } from '../src';
import { cosine, describeStoreContract, expectKnowledgeError } from './store-contract';
import { databaseUrl, dropSchemas, uniqueName, vectorUnavailable } from './postgres';

const skipped = vectorUnavailable ? ` (skipped: ${vectorUnavailable})` : '';

describe.skipIf(Boolean(vectorUnavailable))(
  `external PostgreSQL + pgvector by connection string${skipped}`,
  () => {
    // The collections it creates itself behave like any store's.
    describeStoreContract('external pgvector, own collections', async () => {
      const schema = uniqueName('kb_ext');
      const store = createExternalPgvectorStore(databaseUrl!, { schema });
      return {
        store,
        cleanup: async () => {
          await store.close();
          await dropSchemas(schema);
        },
      };
    });

    describe('existing tables with a vector column', () => {
      const data = uniqueName('ext_data');
      const own = uniqueName('kb_ext');
      const rows = [
        { id: 1, body: 'red apples grow on trees', lang: 'en', embedding: [1, 0, 0] },
        { id: 2, body: 'green pears ripen slowly', lang: 'en', embedding: [0.9, 0.1, 0] },
        { id: 3, body: 'pommes rouges', lang: 'fr', embedding: [0, 1, 0] },
        { id: 4, body: 'blue sky over the trees', lang: 'en', embedding: [0, 0, 1] },
      ];
      let store: PgvectorStore;
      let admin: pg.Client;

      beforeAll(async () => {
        admin = new pg.Client({ connectionString: databaseUrl });
        await admin.connect();
        await admin.query(`CREATE SCHEMA "${data}"`);
        await admin.query(
          `CREATE TABLE "${data}".docs (doc_id bigint PRIMARY KEY, body text NOT NULL, lang text, embedding vector(3))`,
        );
        await admin.query(
          `CREATE TABLE "${data}".langchain_like (uuid text PRIMARY KEY, document text, cmetadata jsonb, embedding vector)`,
        );
        await admin.query(`CREATE TABLE "${data}".no_vectors (id int PRIMARY KEY, name text)`);
        for (const row of rows) {
          await admin.query(`INSERT INTO "${data}".docs VALUES ($1, $2, $3, $4::vector)`, [
            row.id,
            row.body,
            row.lang,
            `[${row.embedding.join(',')}]`,
          ]);
        }
        await admin.query(
          `INSERT INTO "${data}".langchain_like VALUES ('u1', 'hello there', '{"source": "a.pdf"}', '[1,2,3,4,5]'), ('u2', 'bye', '{"source": "b.pdf"}', '[5,4,3,2,1]')`,
        );
        await admin.query(`CREATE INDEX ON "${data}".docs USING hnsw (embedding vector_l2_ops)`);
        store = createExternalPgvectorStore(databaseUrl!, { schema: own });
      });
      afterAll(async () => {
        await store?.close();
        await admin?.end();
        await dropSchemas(data, own);
      });

      it('lists them from the catalog as schema.table with the column dimension and the index distance', async () => {
        const listed = (await store.listCollections()).filter((c) => c.name.startsWith(`${data}.`));
        expect(listed).toEqual([
          { name: `${data}.docs`, dimension: 3, distance: 'l2', writable: false },
          // An untyped `vector` column: the dimension comes from a stored row.
          { name: `${data}.langchain_like`, dimension: 5, distance: 'cosine', writable: false },
        ]);
        expect(await store.collectionInfo(`${data}.docs`)).toEqual({
          name: `${data}.docs`,
          dimension: 3,
          distance: 'l2',
          writable: false,
          count: 4,
          metadataKeys: ['lang'],
        });
      });

      it('leaves out a table its role may not read, or one dropped while listing, and lists the rest', async () => {
        // A role that may read `docs` only: `langchain_like`'s untyped column needs a row read for its
        // dimension, which this role is refused; the listing goes on without it.
        const reader = uniqueName('ext_reader');
        const readerOwn = uniqueName('kb_ext');
        await admin.query(`CREATE ROLE ${reader} LOGIN`);
        await admin.query(`CREATE SCHEMA "${readerOwn}" AUTHORIZATION ${reader}`);
        await admin.query(`GRANT USAGE ON SCHEMA "${data}" TO ${reader}`);
        await admin.query(`GRANT SELECT ON "${data}".docs TO ${reader}`);
        const url = new URL(databaseUrl!);
        url.username = reader;
        url.password = '';
        const restricted = createExternalPgvectorStore(url.toString(), { schema: readerOwn });
        try {
          const listed = (await restricted.listCollections()).filter((c) => c.name.startsWith(`${data}.`));
          expect(listed).toEqual([{ name: `${data}.docs`, dimension: 3, distance: 'l2', writable: false }]);
        } finally {
          await restricted.close();
          await dropSchemas(readerOwn);
          await admin.query(`DROP OWNED BY ${reader}`);
          await admin.query(`DROP ROLE ${reader}`);
        }
      });

      it('previews and queries them, with other columns as metadata or the jsonb metadata column', async () => {
        const preview = await store.preview(`${data}.docs`, { limit: 2, offset: 1 });
        expect(preview.map((c) => c.id)).toEqual(['2', '3']);
        expect(preview[0]).toMatchObject({ content: 'green pears ripen slowly', metadata: { lang: 'en' } });
        expect(preview[0]!.contentHash).toMatch(/^[0-9a-f]{64}$/);

        const hits = await store.query(`${data}.docs`, {
          vector: [1, 0.05, 0],
          topK: 2,
          filter: { field: 'lang', op: 'eq', value: 'en' },
        });
        expect(hits.map((h) => h.id)).toEqual(['1', '2']);
        expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);

        const langchain = await store.query(`${data}.langchain_like`, { vector: [1, 2, 3, 4, 6], topK: 1 });
        expect(langchain).toHaveLength(1);
        expect(langchain[0]).toMatchObject({
          id: 'u1',
          content: 'hello there',
          metadata: { source: 'a.pdf' },
        });
        expect(langchain[0]!.score).toBeCloseTo(cosine([1, 2, 3, 4, 6], [1, 2, 3, 4, 5]), 5);

        const text = await store.textSearch(`${data}.docs`, { query: 'trees', topK: 5 });
        expect(text.map((h) => h.id).sort()).toEqual(['1', '4']);
      });

      it('never writes to them, and refuses names outside the catalog', async () => {
        await expectKnowledgeError(
          store.upsert(`${data}.docs`, [{ id: '9', content: 'x', embedding: [1, 1, 1] }]),
          409,
          'collection_read_only',
        );
        await expectKnowledgeError(store.deleteByIds(`${data}.docs`, ['1']), 409, 'collection_read_only');
        await expectKnowledgeError(
          store.deleteWhere(`${data}.docs`, { field: 'lang', op: 'eq', value: 'en' }),
          409,
          'collection_read_only',
        );
        await expectKnowledgeError(store.dropCollection(`${data}.docs`), 409, 'collection_read_only');
        await expectKnowledgeError(store.collectionInfo(`${data}.no_vectors`), 404, 'collection_not_found');
        await expectKnowledgeError(
          store.collectionInfo(`${data}.docs; drop table x`),
          422,
          'invalid_collection_name',
        );
        await expectKnowledgeError(store.collectionInfo(`${data}."docs"`), 422, 'invalid_collection_name');
        const count = await admin.query(`SELECT count(*)::int AS n FROM "${data}".docs`);
        expect(count.rows[0].n).toBe(rows.length);
      });
    });
  },
);
