import { existsSync } from 'node:fs';
import { ragDocuments } from '@atelier/db';
import { createPgvectorStore } from '@atelier/knowledge';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadsDirOf } from '../src/services/knowledge/collections-service';
import { call, createOrg, fakeModel, startTestApp, type Org, type TestApp } from './helpers';
import { builtinCollection, embed, upload } from './knowledge-fixtures';

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
  ws = await org.workspace(org.admin, 'Collections');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const token = () => org.admin.token;
const store = () => createPgvectorStore(t.app.db);
const get = async (id: string) =>
  (await call(t.app, 'GET', `/rag_collections/${id}`, { token: token() })).body;

describe('RAG collections', () => {
  it('creates a built-in collection sized by its embeddings model, with defaults', async () => {
    const { collectionId, modelId } = await builtinCollection(t.app, org, ws, fake.url, 'Handbook');
    const { rag_collection: shown } = await get(collectionId);
    expect(shown).toMatchObject({
      name: 'Handbook',
      connector_kind: 'builtin',
      collection_name: `rc_${collectionId.replace(/-/g, '')}`,
      embeddings_model_id: modelId,
      dimension: 64,
      distance: 'cosine',
      splitter: 'recursive',
      chunk_size: 1000,
      chunk_overlap: 200,
      top_k: 4,
      writable: true,
      document_count: 0,
      chunk_count: 0,
    });
    const info = await store().collectionInfo(shown.collection_name);
    expect(info).toMatchObject({ dimension: 64, distance: 'cosine', count: 0 });
    for (const path of ['/rag_collections_all', '/rag_collections_with_partial_server']) {
      const list = await call(t.app, 'GET', `${path}?workspace_id=${ws}`, { token: token() });
      expect(list.body.rag_collections.map((c: { id: string }) => c.id)).toContain(collectionId);
    }
  });

  it('refuses a model of the wrong type, an overlap not below the size and a foreign connector', async () => {
    const { modelId: llm } = await fakeModel(t.app, org, ws, fake.url);
    const { modelId: embeddings } = await fakeModel(t.app, org, ws, fake.url, {
      name: 'text-embedding-3-small',
      type: 'text-embeddings',
    });
    const create = (body: object) =>
      call(t.app, 'POST', '/rag_collections', {
        token: token(),
        body: { workspace_id: ws, name: 'Bad', embeddings_model_id: embeddings, ...body },
      });
    expect(await create({ embeddings_model_id: llm })).toMatchObject({
      status: 422,
      body: { code: 'invalid_model_type' },
    });
    expect(await create({ rerank_model_id: embeddings })).toMatchObject({
      status: 422,
      body: { code: 'invalid_model_type' },
    });
    expect(await create({ ocr_model_id: llm })).toMatchObject({
      status: 422,
      body: { code: 'invalid_model_type', detail: expect.stringContaining('is not an ocr model') },
    });
    expect(await create({ chunk_size: 100, chunk_overlap: 100 })).toMatchObject({
      status: 422,
      body: { code: 'invalid_chunk_overlap' },
    });
    const elsewhere = await org.workspace(org.admin, 'Elsewhere');
    const theirs = (await call(t.app, 'GET', `/connectors?workspace_id=${elsewhere}`, { token: token() }))
      .body.connectors[0].id;
    expect((await create({ connector_id: theirs })).status).toBe(404);
  });

  it('an OCR model reads scanned pages: set, shown, cleared; another workspace’s model is not found', async () => {
    const { collectionId } = await builtinCollection(t.app, org, ws, fake.url, 'Scans');
    expect((await get(collectionId)).rag_collection.ocr_model_id).toBeNull();
    const { modelId: ocr } = await fakeModel(t.app, org, ws, fake.url, { name: 'gpt-4o-mini', type: 'ocr' });
    const put = (body: object) =>
      call(t.app, 'PUT', `/rag_collections/${collectionId}`, { token: token(), body });
    expect((await put({ ocr_model_id: ocr })).body.rag_collection.ocr_model_id).toBe(ocr);
    expect((await get(collectionId)).rag_collection.ocr_model_id).toBe(ocr);
    const elsewhere = await org.workspace(org.admin, 'Scans elsewhere');
    const { modelId: theirs } = await fakeModel(t.app, org, elsewhere, fake.url, { type: 'ocr' });
    expect((await put({ ocr_model_id: theirs })).status).toBe(404);
    expect((await put({ ocr_model_id: null })).body.rag_collection.ocr_model_id).toBeNull();
  });

  it('updates settings; the embeddings model only while the collection is empty', async () => {
    const { collectionId } = await builtinCollection(t.app, org, ws, fake.url, 'Policies');
    const { modelId: wider } = await fakeModel(t.app, org, ws, fake.url, {
      name: 'text-embedding-3-large',
      type: 'text-embeddings',
    });
    const updated = await call(t.app, 'PUT', `/rag_collections/${collectionId}`, {
      token: token(),
      body: {
        name: 'Policies 2026',
        top_k: 8,
        hybrid: true,
        score_threshold: 0.2,
        embeddings_model_id: wider,
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.rag_collection).toMatchObject({
      name: 'Policies 2026',
      top_k: 8,
      hybrid: true,
      embeddings_model_id: wider,
    });
    expect(updated.body.rag_collection.score_threshold).toBeCloseTo(0.2);
    expect(
      (
        await call(t.app, 'PUT', `/rag_collections/${collectionId}`, {
          token: token(),
          body: { chunk_overlap: 5000 },
        })
      ).body,
    ).toMatchObject({ code: 'invalid_chunk_overlap' });

    expect((await upload(t.app, token(), collectionId, [{ filename: 'a.md', content: '# A' }])).status).toBe(
      202,
    );
    const { rag_collection: counted } = await get(collectionId);
    expect(counted.document_count).toBe(1);
    const { modelId: third } = await fakeModel(t.app, org, ws, fake.url, {
      name: 'embed-3',
      type: 'text-embeddings',
    });
    const refused = await call(t.app, 'PUT', `/rag_collections/${collectionId}`, {
      token: token(),
      body: { embeddings_model_id: third },
    });
    expect(refused).toMatchObject({ status: 409, body: { code: 'collection_not_empty' } });
  });

  it('reads full text in the language chosen; it changes only while the collection is empty', async () => {
    const { collectionId } = await builtinCollection(t.app, org, ws, fake.url, 'Voyages');
    const { rag_collection: made } = await get(collectionId);
    expect(made.full_text_language).toBe('simple');
    const put = (body: object) =>
      call(t.app, 'PUT', `/rag_collections/${collectionId}`, { token: token(), body });
    expect((await put({ full_text_language: 'french', hybrid: true })).body.rag_collection).toMatchObject({
      full_text_language: 'french',
      hybrid: true,
    });
    expect((await put({ full_text_language: 'klingon' })).status).toBe(422);
    // The empty store collection was made again: its words are now read in French.
    const name = made.collection_name as string;
    await store().upsert(name, [
      {
        id: 'v:0',
        content: 'Les voyages en train sont remboursés.',
        embedding: Array.from({ length: made.dimension as number }, (_, i) => (i === 0 ? 1 : 0)),
        metadata: {},
      },
    ]);
    const hits = await store().textSearch(name, { query: 'voyage remboursé', topK: 5 });
    expect(hits.map((h) => h.id)).toEqual(['v:0']);
    const refused = await put({ full_text_language: 'english' });
    expect(refused).toMatchObject({ status: 409, body: { code: 'collection_not_empty' } });
    expect(refused.body.detail).toContain('full-text language');
    expect((await get(collectionId)).rag_collection.full_text_language).toBe('french');
  });

  it('answers a query with chunks, scores and their source', async () => {
    const { collectionId, modelId } = await builtinCollection(t.app, org, ws, fake.url, 'Animals');
    const name = (await get(collectionId)).rag_collection.collection_name as string;
    const texts = [
      'Cats purr when they are content.',
      'Dogs bark at the mail carrier.',
      'Tax forms are due in April.',
    ];
    const vectors = await embed(t.app, token(), modelId, texts);
    await store().upsert(
      name,
      texts.map((content, i) => ({
        id: `doc-1:${i}`,
        content,
        embedding: vectors[i]!,
        metadata: {
          document_id: 'doc-1',
          filename: 'animals.txt',
          chunk_index: i,
          topic: i < 2 ? 'pets' : 'tax',
        },
      })),
    );
    const res = await call(t.app, 'POST', `/rag_collections/${collectionId}/query`, {
      token: token(),
      body: { query: 'Cats purr when they are content.', top_k: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.documents).toHaveLength(2);
    expect(res.body.documents[0]).toMatchObject({
      id: 'doc-1:0',
      content: texts[0],
      source: { collection_id: collectionId, document_id: 'doc-1', filename: 'animals.txt', chunk_index: 0 },
    });
    expect(res.body.documents[0].score).toBeGreaterThan(res.body.documents[1].score);
    const filtered = await call(t.app, 'POST', `/rag_collections/${collectionId}/query`, {
      token: token(),
      body: { query: 'Cats', filter: { field: 'topic', op: 'eq', value: 'tax' } },
    });
    expect(filtered.body.documents.map((d: { id: string }) => d.id)).toEqual(['doc-1:2']);
    const bad = await call(t.app, 'POST', `/rag_collections/${collectionId}/query`, {
      token: token(),
      body: { query: '' },
    });
    expect(bad.status).toBe(422);
  });

  it('a 3,072-d embeddings model (text-embedding-3-large) gets a collection that ingests and answers', async () => {
    // Beyond pgvector's 2,000 dimensions of an indexed `vector`: the store indexes them as halfvec.
    const large = await startFakeProvider({ embeddingDimensions: 3_072 });
    try {
      const { collectionId } = await builtinCollection(t.app, org, ws, large.url, 'Large embeddings');
      const { rag_collection: shown } = await get(collectionId);
      expect(shown.dimension).toBe(3_072);
      const uploaded = await upload(t.app, token(), collectionId, [
        { filename: 'leave.md', content: '# Leave\n\nEvery employee has 27 days of paid annual leave.' },
        { filename: 'trains.md', content: '# Travel\n\nTrain tickets are reimbursed in second class.' },
      ]);
      expect(uploaded.status).toBe(202);
      let statuses: string[] = [];
      for (const until = Date.now() + 30_000; Date.now() < until;) {
        const docs = await call(t.app, 'GET', `/rag_collections/${collectionId}/documents`, {
          token: token(),
        });
        statuses = docs.body.documents.map((d: { status: string }) => d.status);
        if (statuses.every((s) => s === 'ready' || s === 'failed')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(statuses).toEqual(['ready', 'ready']);
      const answer = await call(t.app, 'POST', `/rag_collections/${collectionId}/query`, {
        token: token(),
        body: { query: 'How many days of paid annual leave?', top_k: 1 },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.documents[0]).toMatchObject({ source: { filename: 'leave.md' } });
      expect(answer.body.documents[0].content).toContain('27 days');
    } finally {
      await large.close();
    }
  });

  it("shows a document's chunks page by page, in their order; not another organization's", async () => {
    const { collectionId } = await builtinCollection(t.app, org, ws, fake.url, 'Chunked');
    const put = await call(t.app, 'PUT', `/rag_collections/${collectionId}`, {
      token: token(),
      body: { chunk_size: 60, chunk_overlap: 0 },
    });
    expect(put.status).toBe(200);
    const sentences = Array.from({ length: 5 }, (_, i) => `Paragraph ${i + 1} of the travel policy.`);
    const uploaded = await upload(t.app, token(), collectionId, [
      { filename: 'policy.txt', content: sentences.join('\n\n') },
    ]);
    const documentId = uploaded.body.documents[0].id as string;
    const path = `/rag_collections/${collectionId}/documents/${documentId}/chunks`;
    for (const until = Date.now() + 30_000; Date.now() < until;) {
      const doc = await call(t.app, 'GET', `/rag_collections/${collectionId}/documents/${documentId}`, {
        token: token(),
      });
      if (doc.body.document.status !== 'queued' && doc.body.document.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const first = await call(t.app, 'GET', `${path}?limit=2`, { token: token() });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 5, limit: 2, offset: 0 });
    expect(first.body.chunks).toEqual([
      expect.objectContaining({
        content: sentences[0],
        metadata: expect.objectContaining({ chunk_index: 0 }),
      }),
      expect.objectContaining({
        content: sentences[1],
        metadata: expect.objectContaining({ chunk_index: 1 }),
      }),
    ]);
    const rest = await call(t.app, 'GET', `${path}?offset=2&limit=10`, { token: token() });
    expect(rest.body.chunks.map((c: { content: string }) => c.content)).toEqual(sentences.slice(2));
    expect(rest.body.chunks[0].metadata).toMatchObject({ filename: 'policy.txt', document_id: documentId });
    expect((await call(t.app, 'GET', `${path}?offset=5`, { token: token() })).body.chunks).toEqual([]);
    expect((await call(t.app, 'GET', `${path}?limit=101`, { token: token() })).status).toBe(422);
    expect((await call(t.app, 'GET', path, { token: other.admin.token })).status).toBe(404);
    const elsewhere = `/rag_collections/${collectionId}/documents/${collectionId}/chunks`;
    expect((await call(t.app, 'GET', elsewhere, { token: token() })).status).toBe(404);
  });

  it('deletes a built-in collection with its store collection, documents and uploads', async () => {
    const { collectionId } = await builtinCollection(t.app, org, ws, fake.url, 'Doomed');
    const name = (await get(collectionId)).rag_collection.collection_name as string;
    expect((await upload(t.app, token(), collectionId, [{ filename: 'a.txt', content: 'bye' }])).status).toBe(
      202,
    );
    const dir = uploadsDirOf(t.app.config.dataDir, org.id, collectionId);
    expect(existsSync(dir)).toBe(true);
    const res = await call(t.app, 'DELETE', `/rag_collections/${collectionId}`, { token: token() });
    expect(res.status).toBe(200);
    expect(existsSync(dir)).toBe(false);
    // An ingestion running meanwhile may have written once more: the worker then drops what it made.
    await expect
      .poll(async () => (await store().listCollections()).map((c) => c.name), { timeout: 10_000 })
      .not.toContain(name);
    expect(
      await t.app.db.select().from(ragDocuments).where(eq(ragDocuments.collectionId, collectionId)),
    ).toEqual([]);
    expect((await call(t.app, 'GET', `/rag_collections/${collectionId}`, { token: token() })).status).toBe(
      404,
    );
  });

  it("another organization's collections are not found", async () => {
    const { collectionId } = await builtinCollection(t.app, org, ws, fake.url, 'Private');
    const theirs = other.admin.token;
    for (const [method, path, body] of [
      ['GET', `/rag_collections/${collectionId}`],
      ['GET', `/rag_collections_all?workspace_id=${ws}`],
      ['PUT', `/rag_collections/${collectionId}`, { name: 'x' }],
      ['POST', `/rag_collections/${collectionId}/query`, { query: 'x' }],
      ['GET', `/rag_collections/${collectionId}/documents`],
      ['DELETE', `/rag_collections/${collectionId}`],
    ] as const) {
      const res = await call(t.app, method, path, { token: theirs, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await get(collectionId)).rag_collection.name).toBe('Private');
  });
});
