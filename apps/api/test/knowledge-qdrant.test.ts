// A Qdrant connector through the API: its collections listed and previewed, a RAG collection on a new
// Qdrant collection filled by an upload (ingested by the API) and queried with sources, the API key
// sealed and sent on every request.
import { startFakeProvider, startFakeQdrant, type FakeProvider, type FakeQdrant } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, fakeModel, startTestApp, type Org, type TestApp } from './helpers';
import { upload } from './knowledge-fixtures';

let t: TestApp;
let fake: FakeProvider;
let qdrant: FakeQdrant;
let org: Org;
let ws: string;
let connectorId: string;
let modelId: string;

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeProvider();
  qdrant = await startFakeQdrant({ apiKey: 'qdrant-secret' });
  org = await createOrg(t.app);
  ws = await org.workspace(org.admin, 'Qdrant');
  ({ modelId } = await fakeModel(t.app, org, ws, fake.url, {
    name: 'text-embedding-3-small',
    type: 'text-embeddings',
  }));
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await qdrant.close();
});

const token = () => org.admin.token;

describe('a Qdrant connector', () => {
  it('is created with its API key sealed, and tested', async () => {
    const res = await call(t.app, 'POST', '/connectors', {
      token: token(),
      body: {
        workspace_id: ws,
        name: 'Team Qdrant',
        kind: 'qdrant',
        settings: { url: qdrant.url, api_key: 'qdrant-secret' },
      },
    });
    expect(res.status).toBe(201);
    connectorId = res.body.id;
    const shown = (await call(t.app, 'GET', `/connectors/${connectorId}`, { token: token() })).body.connector;
    expect(JSON.stringify(shown)).not.toContain('qdrant-secret');
    expect(shown.secret_hint).toMatch(/cret$/);
    const tested = await call(t.app, 'POST', `/connectors/${connectorId}/test`, { token: token() });
    expect(tested.body).toMatchObject({ ok: true, collections: 0 });
    expect(qdrant.requests.every((r) => r.headers['api-key'] === 'qdrant-secret')).toBe(true);
  });

  it('holds a RAG collection filled by an upload, then queried with its source', async () => {
    // A new collection in the Qdrant, made through the connector's store, then chosen in the wizard.
    const store = await t.app.runtime.knowledge.storeFor({
      id: connectorId,
      organizationId: org.id,
      workspaceId: ws,
      kind: 'qdrant',
      settings: { url: qdrant.url },
      secretEncrypted: (await t.app.db.query.connectors.findFirst({
        where: (c, { eq }) => eq(c.id, connectorId),
      }))!.secretEncrypted,
    });
    await store.createCollection({ name: 'handbook', dimension: 64 });
    const listed = await call(t.app, 'GET', `/connectors/${connectorId}/collections`, { token: token() });
    expect(listed.body.collections).toEqual([
      expect.objectContaining({ name: 'handbook', dimension: 64, writable: true }),
    ]);

    const body = {
      workspace_id: ws,
      name: 'Handbook in Qdrant',
      connector_id: connectorId,
      collection_name: 'handbook',
      embeddings_model_id: modelId,
    };
    // Qdrant's text search is its own: only the built-in store reads words in a language.
    const french = await call(t.app, 'POST', '/rag_collections', {
      token: token(),
      body: { ...body, full_text_language: 'french' },
    });
    expect(french).toMatchObject({ status: 422, body: { code: 'full_text_language_unsupported' } });
    const created = await call(t.app, 'POST', '/rag_collections', { token: token(), body });
    expect(created.status).toBe(201);
    const collectionId = created.body.id as string;
    const uploaded = await upload(
      t.app,
      token(),
      collectionId,
      [{ filename: 'leave.txt', content: 'Every employee has 27 days of paid annual leave each year.' }],
      { metadata: JSON.stringify({ department: 'HR', 'cost center': 'Paris' }) },
    );
    expect(uploaded.status).toBe(202);
    const until = Date.now() + 30_000;
    let status = '';
    while (Date.now() < until) {
      const docs = await call(t.app, 'GET', `/rag_collections/${collectionId}/documents`, { token: token() });
      status = docs.body.documents[0].status;
      if (status === 'ready' || status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('ready');
    expect(qdrant.collections.get('handbook')!.points.size).toBeGreaterThan(0);

    const preview = await call(t.app, 'GET', `/connectors/${connectorId}/collections/handbook/preview`, {
      token: token(),
    });
    expect(preview.body).toMatchObject({ limit: 10, offset: 0 });
    expect(preview.body.rows[0].content).toContain('27 days');

    const answer = await call(t.app, 'POST', `/rag_collections/${collectionId}/query`, {
      token: token(),
      body: { query: 'How many days of paid leave?', top_k: 1 },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.documents[0]).toMatchObject({
      source: { collection_id: collectionId, filename: 'leave.txt', chunk_index: 0 },
      metadata: { department: 'HR', 'cost center': 'Paris' },
    });

    // The document's fields edited: its points' payloads change in place, and filters follow.
    const documentId = answer.body.documents[0].source.document_id as string;
    const edited = await call(t.app, 'PATCH', `/rag_collections/${collectionId}/documents/${documentId}`, {
      token: token(),
      body: { metadata: { department: 'People', year: 2025 } },
    });
    expect(edited.status).toBe(200);
    const ask = (filter: object) =>
      call(t.app, 'POST', `/rag_collections/${collectionId}/query`, {
        token: token(),
        body: { query: 'How many days of paid leave?', top_k: 1, filter },
      });
    const people = await ask({ field: 'department', op: 'eq', value: 'People' });
    expect(people.body.documents[0].metadata).toMatchObject({ department: 'People', year: 2025 });
    expect(people.body.documents[0].metadata).not.toHaveProperty('cost center');
    expect((await ask({ field: 'department', op: 'eq', value: 'HR' })).body.documents).toEqual([]);
  });
});
