import { connectors } from '@atelier/db';
import { createSecretBox } from '@atelier/metering';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, startTestApp, type Org, type TestApp } from './helpers';
import { builtinCollection, upload } from './knowledge-fixtures';

const PASSWORD = 's3cret-Passw0rd';
let t: TestApp;
let fake: FakeProvider;
let org: Org;
let other: Org;
let ws: string;

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeProvider();
  org = await createOrg(t.app);
  other = await createOrg(t.app);
  ws = await org.workspace(org.admin, 'Connectors');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const create = (settings: Record<string, string>, kind = 'pgvector', token = org.admin.token) =>
  call(t.app, 'POST', '/connectors', { token, body: { workspace_id: ws, name: 'Vectors', kind, settings } });
const get = (path: string, token = org.admin.token) => call(t.app, 'GET', path, { token });

describe('connectors', () => {
  it('GET /supported_connectors lists builtin, pgvector and qdrant with their fields', async () => {
    const res = await get('/supported_connectors');
    expect(
      res.body.connectors.map((c: { kind: string; creatable: boolean }) => [c.kind, c.creatable]),
    ).toEqual([
      ['builtin', false],
      ['pgvector', true],
      ['qdrant', true],
    ]);
    const qdrant = res.body.connectors.find((c: { kind: string }) => c.kind === 'qdrant');
    expect(qdrant.fields.find((f: { name: string }) => f.name === 'api_key')).toMatchObject({ secret: true });
  });

  it('every workspace has one built-in connector, created on first use even by concurrent calls', async () => {
    const fresh = await org.workspace(org.admin, 'Fresh');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => get(`/connectors?workspace_id=${fresh}`)),
    );
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body.connectors).toEqual([expect.objectContaining({ kind: 'builtin', secret_hint: null })]);
    }
    const rows = await t.app.db
      .select()
      .from(connectors)
      .where(and(eq(connectors.workspaceId, fresh), eq(connectors.kind, 'builtin')));
    expect(rows).toHaveLength(1);
    const builtin = rows[0]!.id;
    const put = await call(t.app, 'PUT', `/connectors/${builtin}`, {
      token: org.admin.token,
      body: { name: 'x' },
    });
    expect(put).toMatchObject({ status: 409, body: { code: 'builtin_connector' } });
    const del = await call(t.app, 'DELETE', `/connectors/${builtin}`, { token: org.admin.token });
    expect(del).toMatchObject({ status: 409, body: { code: 'builtin_connector' } });
  });

  it("takes a pgvector URL's credentials out, seals them and shows only a hint", async () => {
    const created = await create({
      url: `postgres://reader:${PASSWORD}@127.0.0.1:5432/vectors`,
      schema: 'kb',
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const shown = await get(`/connectors/${id}`);
    expect(shown.body.connector).toMatchObject({
      kind: 'pgvector',
      settings: { url: 'postgres://127.0.0.1:5432/vectors', schema: 'kb' },
      secret_hint: '…w0rd',
    });
    const list = await get(`/connectors?workspace_id=${ws}`);
    expect(list.body.connectors.map((c: { kind: string }) => c.kind)).toEqual(['builtin', 'pgvector']);
    expect(JSON.stringify(list.body)).not.toContain(PASSWORD);
    const [row] = await t.app.db.select().from(connectors).where(eq(connectors.id, id));
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    expect(createSecretBox(t.app.config.encryptionKey).open(row!.secretEncrypted!, id)).toBe(
      `reader:${PASSWORD}`,
    );

    // Same origin without credentials keeps them; a new host drops them.
    const renamed = await call(t.app, 'PUT', `/connectors/${id}`, {
      token: org.admin.token,
      body: { name: 'Renamed', settings: { url: 'postgres://127.0.0.1:5432/vectors' } },
    });
    expect(renamed.body.connector).toMatchObject({ name: 'Renamed', secret_hint: '…w0rd' });
    const moved = await call(t.app, 'PUT', `/connectors/${id}`, {
      token: org.admin.token,
      body: { settings: { url: 'postgres://127.0.0.2/vectors' } },
    });
    expect(moved.body.connector.secret_hint).toBeNull();
    expect((await call(t.app, 'DELETE', `/connectors/${id}`, { token: org.admin.token })).status).toBe(200);
  });

  it("seals a qdrant's api_key and refuses unknown or missing settings", async () => {
    const created = await create({ url: 'https://127.0.0.1:6333', api_key: 'qd-key-5678' }, 'qdrant');
    expect(created.status).toBe(201);
    const shown = await get(`/connectors/${created.body.id}`);
    expect(shown.body.connector).toMatchObject({
      settings: { url: 'https://127.0.0.1:6333' },
      secret_hint: '…5678',
    });
    expect(JSON.stringify(shown.body)).not.toContain('qd-key');
    expect(await create({ url: 'https://127.0.0.1', region: 'eu' }, 'qdrant')).toMatchObject({
      status: 422,
      body: { code: 'unknown_setting' },
    });
    expect(await create({}, 'qdrant')).toMatchObject({ status: 422, body: { code: 'setting_required' } });
  });

  it('refuses connector URLs to metadata and private addresses, and host overrides', async () => {
    const metadata = await create({ url: 'http://169.254.169.254/' }, 'qdrant');
    expect(metadata.status).toBe(422);
    expect(metadata.body.code).toBe('unsafe_url');
    expect(metadata.body.detail).toContain('169.254.169.254');
    const pgMetadata = await create({ url: 'postgres://u:p@169.254.169.254:5432/db' });
    expect(pgMetadata).toMatchObject({ status: 422, body: { code: 'unsafe_url' } });
    const socket = await create({ url: 'postgres://127.0.0.1/db?host=/var/run/postgresql' });
    expect(socket).toMatchObject({ status: 422, body: { code: 'unsafe_url' } });
    const notPostgres = await create({ url: 'mysql://127.0.0.1/db' });
    expect(notPostgres).toMatchObject({ status: 422, body: { code: 'invalid_url' } });

    const strict = await startTestApp({ PROVIDER_URL_POLICY: 'public-only' });
    try {
      const o = await createOrg(strict.app);
      const w = await o.workspace(o.admin);
      for (const [kind, url] of [
        ['qdrant', 'http://10.1.2.3:6333'],
        ['pgvector', 'postgresql://u:p@10.1.2.3:5432/db'],
      ]) {
        const res = await call(strict.app, 'POST', '/connectors', {
          token: o.admin.token,
          body: { workspace_id: w, name: 'Private', kind, settings: { url } },
        });
        expect(res.status, url).toBe(422);
        expect(res.body).toMatchObject({ code: 'unsafe_url' });
        expect(res.body.detail).toContain('10.1.2.3');
      }
    } finally {
      await strict.close();
    }
  });

  it("the built-in connector lists, describes and previews only this workspace's collections", async () => {
    const { collectionId } = await builtinCollection(t.app, org, ws, fake.url, 'Handbook');
    const otherWs = await org.workspace(org.admin, 'Neighbour');
    const neighbour = await builtinCollection(t.app, org, otherWs, fake.url, 'Neighbour book');
    const collection = (await get(`/rag_collections/${collectionId}`)).body.rag_collection;
    const builtin = collection.connector_id as string;

    const listed = await get(`/connectors/${builtin}/collections`);
    expect(listed.body.collections).toEqual([
      {
        name: collection.collection_name,
        description: 'Handbook',
        dimension: 64,
        distance: 'cosine',
        writable: true,
      },
    ]);
    const theirs = (await get(`/rag_collections/${neighbour.collectionId}`)).body.rag_collection
      .collection_name;
    expect((await get(`/connectors/${builtin}/collections/${theirs}/metadata`)).status).toBe(404);
    expect((await get(`/connectors/${builtin}/collections/${theirs}/preview`)).status).toBe(404);

    const up = await upload(t.app, org.admin.token, collectionId, [{ filename: 'a.txt', content: 'hello' }]);
    expect(up.status).toBe(202);
    const metadata = await get(`/connectors/${builtin}/collections/${collection.collection_name}/metadata`);
    expect(metadata.body).toMatchObject({
      name: collection.collection_name,
      dimension: 64,
      count: 0,
      writable: true,
    });
    const preview = await get(`/connectors/${builtin}/collections/${collection.collection_name}/preview`);
    expect(preview.body).toEqual({ rows: [], limit: 10, offset: 0 });
    const paged = await get(
      `/connectors/${builtin}/collections/${collection.collection_name}/preview?limit=3&offset=2`,
    );
    expect(paged.body).toMatchObject({ limit: 3, offset: 2 });
    expect((await get(`/connectors/${builtin}/collections/x/preview?limit=1000`)).status).toBe(422);

    const tested = await call(t.app, 'POST', `/connectors/${builtin}/test`, { token: org.admin.token });
    expect(tested.body).toEqual({ ok: true, detail: 'Connected: 1 collection found.', collections: 1 });
  });

  it('refuses to delete a connector a collection uses', async () => {
    const id = (await create({ url: 'postgres://127.0.0.1/db' })).body.id as string;
    const [row] = await t.app.db.select().from(connectors).where(eq(connectors.id, id));
    await t.app.db.execute(
      sql`insert into rag_collections (organization_id, workspace_id, name, connector_id, collection_name) values (${row!.organizationId}, ${ws}, 'Used', ${id}, 'public.docs')`,
    );
    const res = await call(t.app, 'DELETE', `/connectors/${id}`, { token: org.admin.token });
    expect(res).toMatchObject({ status: 409, body: { code: 'connector_in_use' } });
  });

  it('a connector that cannot be reached answers its test with ok false and a clear detail', async () => {
    const id = (await create({ url: 'postgres://nobody:wrong@127.0.0.1:1/none' })).body.id as string;
    const res = await call(t.app, 'POST', `/connectors/${id}/test`, { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, collections: 0 });
    expect(res.body.detail).toMatch(/could not be reached/);
    expect(res.body.detail).not.toContain('wrong');
    expect((await get(`/connectors/${id}/collections`)).body).toMatchObject({
      code: 'connector_unreachable',
    });
  });

  it("another organization's connectors and workspaces are not found", async () => {
    const id = (await create({ url: 'postgres://127.0.0.1/db' })).body.id as string;
    const token = other.admin.token;
    for (const path of [
      `/connectors/${id}`,
      `/connectors/${id}/collections`,
      `/connectors?workspace_id=${ws}`,
    ]) {
      expect((await get(path, token)).status, path).toBe(404);
    }
    expect((await call(t.app, 'PUT', `/connectors/${id}`, { token, body: { name: 'x' } })).status).toBe(404);
    expect((await call(t.app, 'DELETE', `/connectors/${id}`, { token })).status).toBe(404);
    expect((await call(t.app, 'POST', `/connectors/${id}/test`, { token })).status).toBe(404);
  });
});

// An external PostgreSQL with pgvector: the test database itself, reached by its connection string.
const databaseUrl = process.env.DATABASE_URL;
describe.skipIf(!databaseUrl)('an external pgvector connector (PostgreSQL)', () => {
  const schema = `ext_${Date.now().toString(36)}`;
  const run = (text: string) => t.app.db.execute(sql.raw(text));
  beforeAll(async () => {
    await run('create extension if not exists vector');
    await run(`create schema ${schema}`);
    await run(`create table ${schema}.docs (id text primary key, content text, embedding vector(3))`);
    await run(`insert into ${schema}.docs values ('a', 'first row', '[1,0,0]'), ('b', 'second', '[0,1,0]')`);
  });
  afterAll(async () => {
    await run(`drop schema if exists ${schema} cascade`);
    await run(`drop schema if exists ${schema}_own cascade`);
  });

  it('lists, describes and previews its tables; a collection on one is read-only', async () => {
    const created = await create({ url: databaseUrl!, schema: `${schema}_own` });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const tested = await call(t.app, 'POST', `/connectors/${id}/test`, { token: org.admin.token });
    expect(tested.body.ok).toBe(true);
    const listed = await get(`/connectors/${id}/collections`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.collections).toContainEqual(
      expect.objectContaining({ name: `${schema}.docs`, dimension: 3, writable: false }),
    );
    const metadata = await get(`/connectors/${id}/collections/${schema}.docs/metadata`);
    expect(metadata.body).toMatchObject({ dimension: 3, count: 2, writable: false });
    const preview = await get(`/connectors/${id}/collections/${schema}.docs/preview?limit=1&offset=1`);
    expect(preview.body.rows).toHaveLength(1);

    const { modelId } = await builtinCollection(t.app, org, ws, fake.url, 'Probe');
    const collection = await call(t.app, 'POST', '/rag_collections', {
      token: org.admin.token,
      body: {
        workspace_id: ws,
        name: 'External',
        connector_id: id,
        collection_name: `${schema}.docs`,
        embeddings_model_id: modelId,
      },
    });
    expect(collection.status).toBe(201);
    const shown = (await get(`/rag_collections/${collection.body.id}`)).body.rag_collection;
    expect(shown).toMatchObject({ connector_kind: 'pgvector', dimension: 3, writable: false });
    const refused = await upload(t.app, org.admin.token, collection.body.id, [
      { filename: 'a.txt', content: 'x' },
    ]);
    expect(refused).toMatchObject({ status: 409, body: { code: 'collection_read_only' } });
    const missing = await call(t.app, 'POST', '/rag_collections', {
      token: org.admin.token,
      body: {
        workspace_id: ws,
        name: 'Nope',
        connector_id: id,
        collection_name: 'public.nope',
        embeddings_model_id: modelId,
      },
    });
    expect(missing.status).toBe(404);
    expect(
      (await call(t.app, 'DELETE', `/rag_collections/${collection.body.id}`, { token: org.admin.token }))
        .status,
    ).toBe(200);
    const [left] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(sql.raw(`${schema}.docs`));
    expect(left!.n).toBe(2);
  });
});
