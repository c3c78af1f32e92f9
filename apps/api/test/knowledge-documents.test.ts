import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ragDocuments } from '@atelier/db';
import { createPgvectorStore } from '@atelier/knowledge';
import { KNOWLEDGE_LIMITS } from '@atelier/schemas';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadsDirOf } from '../src/services/knowledge/collections-service';
import { call, createOrg, fakeModel, startTestApp, type Org, type TestApp } from './helpers';
import { builtinCollection, embed, streamUpload, upload } from './knowledge-fixtures';

let t: TestApp;
let fake: FakeProvider;
let org: Org;
let other: Org;
let ws: string;
let baseUrl: string;
let collectionId: string;
let modelId: string;

beforeAll(async () => {
  // Nothing is ingested here: the files and rows stay as the upload left them (ingestion has its own tests).
  t = await startTestApp({ INGEST_DOCUMENTS: 'false' });
  fake = await startFakeProvider();
  org = await createOrg(t.app);
  other = await createOrg(t.app);
  ws = await org.workspace(org.admin, 'Documents');
  ({ collectionId, modelId } = await builtinCollection(t.app, org, ws, fake.url, 'Uploads'));
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const token = () => org.admin.token;
const dir = () => uploadsDirOf(t.app.config.dataDir, org.id, collectionId);
const files = () => (existsSync(dir()) ? readdirSync(dir()) : []);
const rowOf = async (id: string) =>
  (await t.app.db.select().from(ragDocuments).where(eq(ragDocuments.id, id)))[0]!;

async function sha256Of(path: string) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

describe('documents', () => {
  it('streams a multi-megabyte upload to a private file and queues its ingestion', async () => {
    const size = 6 * 1024 * 1024 + 123;
    const res = await streamUpload(baseUrl, token(), collectionId, 'manual.txt', size);
    expect(res.status).toBe(202);
    const [document] = res.body.documents;
    expect(document).toMatchObject({
      collection_id: collectionId,
      filename: 'manual.txt',
      size_bytes: size,
      status: 'queued',
      progress: 0,
    });
    const row = await rowOf(document.id);
    const path = join(t.app.config.dataDir, row.storagePath!);
    expect(path).toBe(join(dir(), document.id));
    expect(statSync(path).size).toBe(size);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dir()).mode & 0o777).toBe(0o700);
    expect(row.sha256).toBe(await sha256Of(path));
    expect(files()).toEqual([document.id]);
  });

  it('refuses a file over the limit with 413 and keeps nothing on disk', async () => {
    const before = files();
    const rows = (await call(t.app, 'GET', `/rag_collections/${collectionId}/documents`, { token: token() }))
      .body.documents.length;
    const res = await streamUpload(
      baseUrl,
      token(),
      collectionId,
      'huge.txt',
      KNOWLEDGE_LIMITS.maxDocumentBytes + 1,
    );
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('file_too_large');
    expect(files()).toEqual(before);
    const after = await call(t.app, 'GET', `/rag_collections/${collectionId}/documents`, { token: token() });
    expect(after.body.documents).toHaveLength(rows);
  }, 120_000);

  it('the same filename again reuses its row; the very same ready file is left as it is', async () => {
    const first = await upload(t.app, token(), collectionId, [{ filename: 'faq.md', content: '# FAQ\nv1' }]);
    const id = first.body.documents[0].id as string;
    await t.app.db
      .update(ragDocuments)
      .set({ status: 'ready', progress: 1, chunkCount: 3 })
      .where(eq(ragDocuments.id, id));

    const same = await upload(t.app, token(), collectionId, [{ filename: 'faq.md', content: '# FAQ\nv1' }]);
    expect(same.status).toBe(202);
    expect(same.body.documents[0]).toMatchObject({ id, status: 'ready', chunk_count: 3 });

    const changed = await upload(t.app, token(), collectionId, [
      { filename: 'faq.md', content: '# FAQ\nv2, longer' },
    ]);
    expect(changed.body.documents[0]).toMatchObject({ id, status: 'queued', progress: 0 });
    const row = await rowOf(id);
    expect(row.sha256).toBe(createHash('sha256').update('# FAQ\nv2, longer').digest('hex'));
    expect(files().filter((f) => f === id)).toHaveLength(1);
    expect(files().some((f) => f.startsWith('.upload-'))).toBe(false);
  });

  it('takes several files at once, lists them newest first and shows one', async () => {
    const res = await upload(t.app, token(), collectionId, [
      { filename: 'a.csv', content: 'x,y\n1,2', mimeType: 'text/csv' },
      { filename: 'b.json', content: '{"a":1}', mimeType: 'application/json' },
      // Word 97-2003 and Outlook files are taken too (their content is read when ingested).
      { filename: 'c.doc', content: 'x', mimeType: 'application/msword' },
      { filename: 'd.msg', content: 'x', mimeType: 'application/vnd.ms-outlook' },
    ]);
    expect(res.status).toBe(202);
    expect(res.body.documents.map((d: { filename: string }) => d.filename)).toEqual([
      'a.csv',
      'b.json',
      'c.doc',
      'd.msg',
    ]);
    const list = await call(t.app, 'GET', `/rag_collections/${collectionId}/documents`, { token: token() });
    const stamps = list.body.documents.map((d: { created_at: string }) => d.created_at);
    expect([...stamps].sort().reverse()).toEqual(stamps);
    const one = await call(
      t.app,
      'GET',
      `/rag_collections/${collectionId}/documents/${res.body.documents[1].id}`,
      {
        token: token(),
      },
    );
    expect(one.body.document).toMatchObject({ filename: 'b.json', status: 'queued' });
  });

  it("a folder's files keep their path in it: two files of one name in two folders are two documents", async () => {
    const res = await upload(t.app, token(), collectionId, [
      { filename: 'policies/2024/leave.txt', content: 'Twenty-five days.' },
      { filename: 'policies/2023/leave.txt', content: 'Twenty days.' },
      // Where a client's file was on its disk is not kept, nor ".." and "." segments.
      { filename: '/home/ana/notes.txt', content: 'Notes.' },
      { filename: 'C:/Users/ana/memo.txt', content: 'Memo.' },
      { filename: 'team/../handbook/./intro.txt', content: 'Intro.' },
    ]);
    expect(res.status).toBe(202);
    expect(res.body.documents.map((d: { filename: string }) => d.filename)).toEqual([
      'policies/2024/leave.txt',
      'policies/2023/leave.txt',
      'notes.txt',
      'memo.txt',
      'team/handbook/intro.txt',
    ]);
    // Stored under the documents' ids, whatever their names.
    for (const document of res.body.documents as { id: string }[]) {
      expect((await rowOf(document.id)).storagePath).toMatch(new RegExp(`/${document.id}$`));
    }
    const again = await upload(t.app, token(), collectionId, [
      { filename: 'policies/2024/leave.txt', content: 'Thirty days.' },
    ]);
    expect(again.body.documents[0].id).toBe(res.body.documents[0].id);
    const refused = await upload(t.app, token(), collectionId, [{ filename: '../..', content: 'x' }]);
    expect(refused).toMatchObject({ status: 422, body: { code: 'invalid_filename' } });
  });

  it('refuses unsupported types (415), a body that is not multipart and an empty upload', async () => {
    const before = files();
    const heic = await upload(t.app, token(), collectionId, [
      { filename: 'a.txt', content: 'fine' },
      { filename: 'photo.heic', content: Buffer.from([0, 0, 0, 24]), mimeType: 'image/heic' },
    ]);
    expect(heic).toMatchObject({ status: 415, body: { code: 'unsupported_type' } });
    expect(heic.body.detail).toContain('photo.heic');
    // Apple's formats: refused saying what to save them as.
    const numbers = await upload(t.app, token(), collectionId, [
      { filename: 'budget.numbers', content: 'x', mimeType: 'application/x-iwork-numbers-sffnumbers' },
    ]);
    expect(numbers).toMatchObject({ status: 415, body: { code: 'unsupported_type' } });
    expect(numbers.body.detail).toBe(
      '"budget.numbers": Apple Numbers spreadsheets are not supported documents; save it as .xlsx.',
    );
    expect(files()).toEqual(before);
    const json = await call(t.app, 'POST', `/rag_collections/${collectionId}/documents`, {
      token: token(),
      body: { file: 'x' },
    });
    expect(json).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
    const none = await upload(t.app, token(), collectionId, []);
    expect(none.status).toBe(422);
  });

  it('an image is taken only by a collection with an OCR model; else 422 and nothing kept', async () => {
    const before = files();
    const photo = {
      filename: 'whiteboard.jpg',
      content: Buffer.from([0xff, 0xd8, 0xff]),
      mimeType: 'image/jpeg',
    };
    const refused = await upload(t.app, token(), collectionId, [
      { filename: 'a.txt', content: 'fine' },
      photo,
    ]);
    expect(refused).toMatchObject({ status: 422, body: { code: 'ocr_model_missing' } });
    expect(refused.body.detail).toContain('whiteboard.jpg');
    expect(files()).toEqual(before);

    const { collectionId: scans } = await builtinCollection(t.app, org, ws, fake.url, 'Whiteboards');
    const { modelId: ocr } = await fakeModel(t.app, org, ws, fake.url, {
      name: 'mistral-ocr-latest',
      type: 'ocr',
    });
    const put = await call(t.app, 'PUT', `/rag_collections/${scans}`, {
      token: token(),
      body: { ocr_model_id: ocr },
    });
    expect(put.status).toBe(200);
    const taken = await upload(t.app, token(), scans, [photo]);
    expect(taken).toMatchObject({ status: 202, body: { documents: [{ filename: 'whiteboard.jpg' }] } });
  });

  it('deletes a document: its chunks, its file and its row', async () => {
    const up = await upload(t.app, token(), collectionId, [{ filename: 'gone.txt', content: 'to delete' }]);
    const id = up.body.documents[0].id as string;
    const name = `rc_${collectionId.replace(/-/g, '')}`;
    const [vector] = await embed(t.app, token(), modelId, ['to delete']);
    const store = createPgvectorStore(t.app.db);
    await store.upsert(name, [
      { id: `${id}:0`, content: 'to delete', embedding: vector!, metadata: { document_id: id } },
      { id: 'other:0', content: 'kept', embedding: vector!, metadata: { document_id: 'other' } },
    ]);
    const res = await call(t.app, 'DELETE', `/rag_collections/${collectionId}/documents/${id}`, {
      token: token(),
    });
    expect(res.status).toBe(200);
    const left = await store.preview(name, { limit: 100 });
    expect(left.map((c) => c.id)).toEqual(['other:0']);
    expect(files()).not.toContain(id);
    expect(
      (await call(t.app, 'GET', `/rag_collections/${collectionId}/documents/${id}`, { token: token() }))
        .status,
    ).toBe(404);
  });

  it("edits a document's own fields: written on its chunks in place, others' chunks left alone", async () => {
    const up = await upload(t.app, token(), collectionId, [{ filename: 'leave.md', content: '# Leave' }]);
    const id = up.body.documents[0].id as string;
    expect(up.body.documents[0].metadata).toEqual({});
    const name = `rc_${collectionId.replace(/-/g, '')}`;
    const [vector] = await embed(t.app, token(), modelId, ['leave policy']);
    const store = createPgvectorStore(t.app.db);
    await store.upsert(name, [
      {
        id: `${id}:0`,
        content: 'leave policy',
        embedding: vector!,
        metadata: { document_id: id, chunk_index: 0 },
      },
      {
        id: `${id}:1`,
        content: 'leave days',
        embedding: vector!,
        metadata: { document_id: id, chunk_index: 1 },
      },
      { id: 'elsewhere:0', content: 'kept', embedding: vector!, metadata: { document_id: 'elsewhere' } },
    ]);
    const path = `/rag_collections/${collectionId}/documents/${id}`;
    const chunks = async () =>
      Object.fromEntries((await store.preview(name, { limit: 100 })).map((c) => [c.id, c.metadata]));

    const set = await call(t.app, 'PATCH', path, {
      token: token(),
      body: { metadata: { ' department ': ' HR ', year: 2024, public: false } },
    });
    expect(set.status).toBe(200);
    expect(set.body.document).toMatchObject({
      id,
      metadata: { department: 'HR', year: 2024, public: false },
    });
    expect((await chunks())[`${id}:1`]).toEqual({
      document_id: id,
      chunk_index: 1,
      department: 'HR',
      year: 2024,
      public: false,
    });
    // Replaced as a whole: a field left out goes from the chunks too.
    const replaced = await call(t.app, 'PATCH', path, { token: token(), body: { metadata: { year: 2025 } } });
    expect(replaced.body.document.metadata).toEqual({ year: 2025 });
    const after = await chunks();
    expect(after[`${id}:0`]).toEqual({ document_id: id, chunk_index: 0, year: 2025 });
    expect(after['elsewhere:0']).toEqual({ document_id: 'elsewhere' });
    const found = await call(t.app, 'POST', `/rag_collections/${collectionId}/query`, {
      token: token(),
      body: { query: 'leave policy', top_k: 5, filter: { field: 'year', op: 'eq', value: 2025 } },
    });
    expect(found.body.documents.map((d: { id: string }) => d.id).sort()).toEqual([`${id}:0`, `${id}:1`]);
    const listed = await call(t.app, 'GET', `/rag_collections/${collectionId}/documents`, { token: token() });
    expect(listed.body.documents.find((d: { id: string }) => d.id === id).metadata).toEqual({ year: 2025 });
  });

  it('refuses fields Atelier names itself, too many, dotted names, empty or nested values, and changes nothing', async () => {
    const up = await upload(t.app, token(), collectionId, [{ filename: 'checked.md', content: '# Checked' }]);
    const id = up.body.documents[0].id as string;
    const path = `/rag_collections/${collectionId}/documents/${id}`;
    await call(t.app, 'PATCH', path, { token: token(), body: { metadata: { team: 'ops' } } });
    const bad: [unknown, RegExp][] = [
      [{ Filename: 'x' }, /name Atelier gives its own metadata/],
      [{ page: 3 }, /name Atelier gives its own metadata/],
      [Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, i])), /at most 20 metadata fields/],
      [{ 'a.b': 'x' }, /letters, digits, spaces/],
      [{ team: '  ' }, /needs a value/],
      [{ team: { nested: true } }, /./],
      [{ team: null }, /./],
      [{ team: 'x'.repeat(501) }, /at most 500 characters/],
      ['HR', /./],
    ];
    for (const [metadata, detail] of bad) {
      const res = await call(t.app, 'PATCH', path, { token: token(), body: { metadata } });
      expect(res.status, JSON.stringify(metadata)).toBe(422);
      expect(res.body.detail, JSON.stringify(metadata)).toMatch(detail);
    }
    expect((await rowOf(id)).metadata).toEqual({ team: 'ops' });
  });

  it('an upload gives its documents fields; a file uploaded again keeps its own unless new ones are given', async () => {
    const fields = { metadata: JSON.stringify({ department: 'Sales', region: 'EMEA' }) };
    const first = await upload(
      t.app,
      token(),
      collectionId,
      [
        { filename: 'pricing.md', content: '# Pricing' },
        { filename: 'terms.md', content: '# Terms' },
      ],
      fields,
    );
    expect(first.status).toBe(202);
    for (const d of first.body.documents) expect(d.metadata).toEqual({ department: 'Sales', region: 'EMEA' });
    const again = await upload(t.app, token(), collectionId, [
      { filename: 'pricing.md', content: '# Pricing v2' },
    ]);
    expect(again.body.documents[0].metadata).toEqual({ department: 'Sales', region: 'EMEA' });
    const renamed = await upload(
      t.app,
      token(),
      collectionId,
      [{ filename: 'terms.md', content: '# Terms' }],
      { metadata: JSON.stringify({ department: 'Legal' }) },
    );
    expect(renamed.body.documents[0].metadata).toEqual({ department: 'Legal' });

    const listed = await call(t.app, 'GET', `/rag_collections/${collectionId}/metadata_fields`, {
      token: token(),
    });
    expect(listed.status).toBe(200);
    const department = listed.body.fields.find((f: { key: string }) => f.key === 'department');
    expect(department).toMatchObject({ types: ['string'], documents: 2 });
    expect(department.values).toEqual(
      expect.arrayContaining([
        { value: 'Sales', documents: 1 },
        { value: 'Legal', documents: 1 },
      ]),
    );

    const before = files().length;
    for (const [form, code] of [
      [{ metadata: '{not json' }, 'invalid_metadata'],
      [{ metadata: JSON.stringify({ chunk_index: 1 }) }, 'invalid_metadata'],
      [{ tags: 'HR' }, 'unknown_field'],
    ] as const) {
      const res = await upload(
        t.app,
        token(),
        collectionId,
        [{ filename: 'refused.md', content: '# No' }],
        form,
      );
      expect(res.status, JSON.stringify(form)).toBe(422);
      expect(res.body.code).toBe(code);
    }
    expect(files().length).toBe(before);
  });

  it('sets and removes fields on several documents at once, all or none', async () => {
    const up = await upload(t.app, token(), collectionId, [
      { filename: 'bulk-a.md', content: '# A' },
      { filename: 'bulk-b.md', content: '# B' },
      { filename: 'bulk-c.md', content: '# C' },
    ]);
    const [a, b, c] = up.body.documents.map((d: { id: string }) => d.id) as [string, string, string];
    const name = `rc_${collectionId.replace(/-/g, '')}`;
    const [vector] = await embed(t.app, token(), modelId, ['bulk']);
    const store = createPgvectorStore(t.app.db);
    await store.upsert(
      name,
      [a, b].map((id) => ({
        id: `${id}:0`,
        content: 'bulk',
        embedding: vector!,
        metadata: { document_id: id },
      })),
    );
    const path = `/rag_collections/${collectionId}/documents`;
    await call(t.app, 'PATCH', `${path}/${a}`, {
      token: token(),
      body: { metadata: { draft: true, owner: 'Ana' } },
    });

    const res = await call(t.app, 'PATCH', path, {
      token: token(),
      body: { document_ids: [b, a], set: { department: 'HR' }, unset: ['draft'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.documents.map((d: { id: string; metadata: object }) => [d.id, d.metadata])).toEqual([
      [b, { department: 'HR' }],
      [a, { owner: 'Ana', department: 'HR' }],
    ]);
    const chunks = Object.fromEntries(
      (await store.preview(name, { limit: 100 })).map((chunk) => [chunk.id, chunk.metadata]),
    );
    expect(chunks[`${a}:0`]).toEqual({ document_id: a, owner: 'Ana', department: 'HR' });
    expect(chunks[`${b}:0`]).toEqual({ document_id: b, department: 'HR' });
    expect((await rowOf(c)).metadata).toEqual({});

    // An id of no document of this collection: nothing changes.
    const missing = await call(t.app, 'PATCH', path, {
      token: token(),
      body: { document_ids: [c, '00000000-0000-4000-8000-000000000000'], set: { department: 'Sales' } },
    });
    expect(missing.status).toBe(404);
    expect((await rowOf(c)).metadata).toEqual({});
    // A document that would have too many fields refuses the whole change.
    const many = Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`f${i}`, i]));
    const full = await call(t.app, 'PATCH', path, {
      token: token(),
      body: { document_ids: [c, a], set: many },
    });
    expect(full).toMatchObject({ status: 422, body: { code: 'too_many_fields' } });
    expect(full.body.detail).toContain('bulk-a.md');
    expect((await rowOf(c)).metadata).toEqual({});
    const nothing = await call(t.app, 'PATCH', path, { token: token(), body: { document_ids: [c] } });
    expect(nothing.status).toBe(422);
    const theirs = await call(t.app, 'PATCH', path, {
      token: other.admin.token,
      body: { document_ids: [c], set: { owner: 'them' } },
    });
    expect(theirs.status).toBe(404);
  });

  it("another organization's documents are not found and cannot be added to", async () => {
    const up = await upload(t.app, token(), collectionId, [{ filename: 'mine.txt', content: 'mine' }]);
    const id = up.body.documents[0].id as string;
    const theirs = other.admin.token;
    expect((await upload(t.app, theirs, collectionId, [{ filename: 'x.txt', content: 'x' }])).status).toBe(
      404,
    );
    for (const method of ['GET', 'DELETE', 'PATCH'] as const) {
      const res = await call(t.app, method, `/rag_collections/${collectionId}/documents/${id}`, {
        token: theirs,
        ...(method === 'PATCH' ? { body: { metadata: { owner: 'them' } } } : {}),
      });
      expect(res.status, method).toBe(404);
    }
    const fields = await call(t.app, 'GET', `/rag_collections/${collectionId}/metadata_fields`, {
      token: theirs,
    });
    expect(fields.status).toBe(404);
    expect((await rowOf(id)).metadata).toEqual({});
    expect(existsSync(join(dir(), id))).toBe(true);
  });
});
