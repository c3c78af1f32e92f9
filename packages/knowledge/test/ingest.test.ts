import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedTestDatabase } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnowledge } from '../src/index';
import { segments } from '../src/ingest/chunk';
import {
  addCollection,
  documentRow,
  embeddingCalls,
  logRows,
  queueDocument,
  settled,
  startEnv,
  type Env,
} from './ingest-env';

const SENTENCE = 'The quick brown fox jumps over the lazy dog.';
const FIXTURE_TYPES: [string, string][] = [
  ['sample.pdf', 'pdf'],
  ['sample.docx', 'docx'],
  ['sample.doc', 'doc'],
  ['sample.rtf', 'rtf'],
  ['sample.pptx', 'pptx'],
  ['sample.ppt', 'ppt'],
  ['sample.odt', 'odt'],
  ['sample.xlsx', 'xlsx'],
  ['sample.xls', 'xls'],
  ['sample.ods', 'ods'],
  ['sample.odp', 'odp'],
  ['sample.epub', 'epub'],
  ['sample.eml', 'email'],
  ['sample.msg', 'email'],
  ['sample.md', 'markdown'],
  ['sample.csv', 'csv'],
  ['sample.json', 'json'],
  ['sample.html', 'html'],
  ['sample.txt', 'txt'],
];

let env: Env;

beforeAll(async () => {
  env = await startEnv('Ingestion test org');
  env.knowledge.startIngestionWorker({ concurrency: 2 });
});
afterAll(async () => {
  await env?.close();
});

const paragraphs = (n: number, tag = '') =>
  Array.from(
    { length: n },
    (_, i) =>
      `Paragraph ${i} ${tag}about topic${i} with words w${i}a w${i}b w${i}c and some filler text here.`,
  ).join('\n\n');

const builtin = (of: Env = env) => ({
  id: of.connectorId,
  organizationId: of.organizationId,
  workspaceId: of.workspaceId,
  kind: 'builtin' as const,
  settings: {},
  secretEncrypted: null,
});

async function storeOf(collectionName: string) {
  const store = await env.knowledge.storeFor(builtin());
  return { store, count: async () => (await store.collectionInfo(collectionName)).count };
}

describe('ingestion through the worker', () => {
  it('ingests every fixture type into the built-in store, with the chunk metadata convention', async () => {
    const { id, collectionName } = await addCollection(env, { chunkSize: 300, chunkOverlap: 20 });
    const ids = new Map<string, string>();
    for (const [file] of FIXTURE_TYPES) ids.set(file, await queueDocument(env, id, file, { fixture: file }));
    for (const [file, type] of FIXTURE_TYPES) {
      const row = (await settled(env, ids.get(file)!))!;
      expect(row, file).toMatchObject({ status: 'ready', type, progress: 1, error: null, storagePath: null });
      expect(row.chunkCount, file).toBeGreaterThan(0);
      expect(row.lockedUntil).toBeNull();
    }
    // The uploads are removed once ingested.
    const rows = await env.q<{ storage_path: string | null; chunk_count: number }>(
      'SELECT storage_path, chunk_count FROM rag_documents WHERE collection_id = $1',
      [id],
    );
    expect(rows).toHaveLength(FIXTURE_TYPES.length);
    for (const row of rows) expect(row.storage_path).toBeNull();

    const answer = await env.knowledge.query(env.scope, id, { query: SENTENCE, top_k: 20 });
    const found = new Set(
      answer.documents.filter((d) => d.content.includes('quick brown fox')).map((d) => d.source.filename),
    );
    expect([...found].sort()).toEqual(FIXTURE_TYPES.map(([file]) => file).sort());
    const pdf = answer.documents.find((d) => d.source.filename === 'sample.pdf')!;
    expect(pdf.metadata).toMatchObject({
      document_id: ids.get('sample.pdf'),
      type: 'pdf',
      page: 1,
      pages: 2,
    });
    expect(pdf.source).toMatchObject({
      collection_id: id,
      document_id: ids.get('sample.pdf'),
      chunk_index: 0,
    });
    expect(pdf.id).toBe(`${ids.get('sample.pdf')}:0`);
    // A spreadsheet's chunks know their sheet.
    const sheet = answer.documents.find((d) => d.source.filename === 'sample.xlsx')!;
    expect(sheet.metadata).toMatchObject({ type: 'xlsx', sheet: 'Notes & remarks', sheets: 2, rows: 3 });
    const ods = answer.documents.find((d) => d.source.filename === 'sample.ods')!;
    expect(ods.metadata).toMatchObject({ type: 'ods', sheet: 'Notes & remarks', sheets: 2, rows: 4 });
    const odp = answer.documents.find((d) => d.source.filename === 'sample.odp')!;
    // A presentation's chunks know their slide (the sentence is on the first one).
    expect(odp.metadata).toMatchObject({ type: 'odp', slide: 1, slides: 2 });
    const pptx = answer.documents.find((d) => d.source.filename === 'sample.pptx')!;
    expect(pptx.metadata).toMatchObject({ type: 'pptx', slide: 2, slides: 3 });
    // A book's chunks know their chapter; an email's attachment chunks know the attachment.
    const epub = answer.documents.find((d) => d.source.filename === 'sample.epub')!;
    expect(epub.metadata).toMatchObject({ type: 'epub', chapter: 'The Beginning', chapters: 2 });
    const eml = answer.documents.find((d) => d.source.filename === 'sample.eml')!;
    expect(eml.metadata).toMatchObject({ type: 'email', title: 'Réunion de lancement', attachments: 2 });
    expect(eml.metadata.attachment).toBeUndefined();
    const agenda = await env.knowledge.query(env.scope, id, {
      query: 'Agenda: budget review at ten.',
      top_k: 3,
    });
    for (const file of ['sample.eml', 'sample.msg']) {
      expect(agenda.documents.find((d) => d.source.filename === file)?.metadata, file).toMatchObject({
        attachment: 'agenda.txt',
      });
    }
    const msg = answer.documents.find((d) => d.source.filename === 'sample.msg')!;
    expect(msg.metadata).toMatchObject({ type: 'email', title: 'Réunion de lancement', attachments: 3 });
    const { count } = await storeOf(collectionName);
    expect(await count()).toBe(rows.reduce((sum, r) => sum + r.chunk_count, 0));
    // The vector index, deferred while the documents were written, is built once none waits.
    await expect
      .poll(
        async () =>
          (
            await env.q<{ name: string }>('SELECT indexname AS name FROM pg_indexes WHERE tablename = $1', [
              collectionName,
            ])
          ).map((r) => r.name),
        { timeout: 15_000 },
      )
      .toContain(`_${collectionName}_hnsw`);
  });

  it('takes the dimension from the first embedding, and remakes a store collection that went missing', async () => {
    const fresh = await addCollection(env);
    expect(
      await settled(env, await queueDocument(env, fresh.id, 'a.txt', { text: 'First words.' })),
    ).toMatchObject({
      status: 'ready',
    });
    const [row] = await env.q<{ dimension: number }>('SELECT dimension FROM rag_collections WHERE id = $1', [
      fresh.id,
    ]);
    expect(row!.dimension).toBe(256);
    const lost = await addCollection(env, { dimension: 256 });
    const docId = await queueDocument(env, lost.id, 'b.txt', {
      text: 'Words for a collection its store lost.',
    });
    expect(await settled(env, docId)).toMatchObject({ status: 'ready', chunkCount: 1 });
    expect(await (await storeOf(lost.collectionName)).count()).toBe(1);
  });

  it('splits with the collection splitter: markdown headings and html headers become metadata', async () => {
    const md = await addCollection(env, { splitter: 'markdown', chunkSize: 500, chunkOverlap: 0 });
    const html = await addCollection(env, { splitter: 'html', chunkSize: 500, chunkOverlap: 0 });
    const mdDoc = await queueDocument(env, md.id, 'guide.md', {
      text: '# Guide\n\nIntro text.\n\n## Install\n\nRun the installer twice.\n\n## Usage\n\nOpen the app.',
    });
    const htmlDoc = await queueDocument(env, html.id, 'page.html', {
      text: '<html><body><h1>Manual</h1><p>Welcome.</p><h2>Safety</h2><p>Wear gloves at all times.</p></body></html>',
    });
    expect(await settled(env, mdDoc)).toMatchObject({ status: 'ready', chunkCount: 3 });
    expect(await settled(env, htmlDoc)).toMatchObject({ status: 'ready', chunkCount: 2 });
    const install = await env.knowledge.query(env.scope, md.id, { query: 'run the installer', top_k: 1 });
    expect(install.documents[0]!.metadata).toMatchObject({ 'Header 1': 'Guide', 'Header 2': 'Install' });
    const safety = await env.knowledge.query(env.scope, html.id, { query: 'wear gloves', top_k: 1 });
    expect(safety.documents[0]!.metadata).toMatchObject({ 'Header 1': 'Manual', 'Header 2': 'Safety' });
  });

  it('smart insertion: a changed re-upload embeds only the changed chunks and drops the extra ones', async () => {
    const { id, collectionName } = await addCollection(env, { chunkSize: 120, chunkOverlap: 0 });
    const { count } = await storeOf(collectionName);
    const docId = await queueDocument(env, id, 'notes.txt', { text: paragraphs(40) });
    const first = (await settled(env, docId))!;
    expect(first).toMatchObject({ status: 'ready', chunkCount: 40, chunksSkipped: 0 });
    expect(await count()).toBe(40);

    const inputsBefore = embeddedTexts();
    const logsBefore = await logRows(env, env.models.embed);
    const changed = paragraphs(40).replace('Paragraph 7 about', 'Paragraph 7 now rewritten about');
    expect(await queueDocument(env, id, 'notes.txt', { text: changed })).toBe(docId);
    const second = (await settled(env, docId))!;
    expect(second).toMatchObject({ status: 'ready', chunkCount: 40, chunksSkipped: 39, progress: 1 });
    expect(embeddedTexts() - inputsBefore).toBe(1);
    expect((await logRows(env, env.models.embed)) - logsBefore).toBe(1);
    const hit = await env.knowledge.query(env.scope, id, { query: 'now rewritten', top_k: 1 });
    expect(hit.documents[0]!.id).toBe(`${docId}:7`);

    // A shorter version (paragraph 7 as it first was): the chunks beyond the new count are deleted.
    const callsBefore = embeddingCalls(env);
    await queueDocument(env, id, 'notes.txt', { text: paragraphs(25) });
    expect(await settled(env, docId)).toMatchObject({ status: 'ready', chunkCount: 25, chunksSkipped: 24 });
    expect(embeddingCalls(env)).toBe(callsBefore + 1);
    expect(await count()).toBe(25);
  });

  it("writes a document's own fields on its chunks, on kept chunks too, and after an edit made while it is ingested", async () => {
    const { id, collectionName } = await addCollection(env, { chunkSize: 100, chunkOverlap: 0 });
    const table = `kb."${collectionName}"`;
    const tagged = async (docId: string, field: string, value: string) =>
      (
        await env.q<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${table} WHERE metadata->>'document_id' = $1 AND metadata->>$2 = $3`,
          [docId, field, value],
        )
      )[0]!.n;
    const policy = await queueDocument(env, id, 'policy.txt', {
      text: paragraphs(30),
      metadata: { department: 'HR', year: 2024 },
    });
    expect(await settled(env, policy)).toMatchObject({ status: 'ready', chunkCount: 30 });
    expect(await tagged(policy, 'department', 'HR')).toBe(30);
    const filtered = await env.knowledge.query(env.scope, id, {
      query: 'topic3',
      top_k: 5,
      filter: {
        and: [
          { field: 'department', op: 'eq', value: 'HR' },
          { field: 'year', op: 'eq', value: 2024 },
        ],
      },
    });
    expect(filtered.documents.length).toBe(5);
    expect(filtered.documents[0]!.metadata).toMatchObject({
      department: 'HR',
      year: 2024,
      document_id: policy,
    });
    const none = await env.knowledge.query(env.scope, id, {
      query: 'topic3',
      top_k: 5,
      filter: { field: 'department', op: 'eq', value: 'Sales' },
    });
    expect(none.documents).toEqual([]);

    // The same text uploaded again with new fields (written on the row only): the kept chunks get them.
    await queueDocument(env, id, 'policy.txt', { text: paragraphs(30), metadata: { department: 'Legal' } });
    expect(await settled(env, policy)).toMatchObject({ status: 'ready', chunksSkipped: 30 });
    expect(await tagged(policy, 'department', 'Legal')).toBe(30);

    // Fields edited on the row while the chunks are written: the ingestion brings every chunk to them.
    const big = await queueDocument(env, id, 'big.txt', { text: paragraphs(3000), metadata: { team: 'a' } });
    let during = false;
    for (let i = 0; i < 400 && !during; i++) {
      const row = await documentRow(env, big);
      during = row?.status === 'processing' && row.chunkCount > 0;
      if (!during) await new Promise((r) => setTimeout(r, 10));
    }
    await env.q(`UPDATE rag_documents SET metadata = '{"team": "b", "year": 2025}' WHERE id = $1`, [big]);
    expect(during && (await documentRow(env, big))!.status).toBe('processing');
    expect(await settled(env, big)).toMatchObject({ status: 'ready', chunkCount: 3000 });
    expect(await tagged(big, 'team', 'b')).toBe(3000);
    expect(await tagged(big, 'year', '2025')).toBe(3000);
  });

  it('deleting a document while it is ingested leaves none of its chunks behind', async () => {
    const { id, collectionName } = await addCollection(env, { chunkSize: 100, chunkOverlap: 0 });
    const { count } = await storeOf(collectionName);
    // The collection exists in its store before (a document already ingested).
    await settled(env, await queueDocument(env, id, 'small.txt', { text: 'A small first document.' }));
    const docId = await queueDocument(env, id, 'big.txt', { text: paragraphs(3000) });
    for (let i = 0; i < 400; i++) {
      const row = await documentRow(env, docId);
      if (row && row.status === 'processing' && row.chunkCount > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await env.q('DELETE FROM rag_documents WHERE id = $1', [docId]);
    // The worker notices at its next batch (or lease renewal) and removes what it wrote.
    let left = -1;
    for (let i = 0; i < 200 && left !== 1; i++) {
      await new Promise((r) => setTimeout(r, 50));
      left = await count();
    }
    expect(left).toBe(1);
    expect(await documentRow(env, docId)).toBeUndefined();
  });

  it('a failure is recorded readably and leaves no chunks; the upload stays for a retry', async () => {
    const broken = await addCollection(env, { embeddingsModelId: env.models.broken });
    const docId = await queueDocument(env, broken.id, 'a.txt', { text: 'Some text to embed.' });
    const row = (await settled(env, docId))!;
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/key|auth|401/i);
    expect(existsSync(join(env.dataDir, row.storagePath!))).toBe(true);

    const good = await addCollection(env);
    const bad = await queueDocument(env, good.id, 'fake.pdf', { text: 'this is not a pdf at all' });
    const badRow = (await settled(env, bad))!;
    expect(badRow).toMatchObject({ status: 'failed', chunkCount: 0 });
    expect(badRow.error).toMatch(/pdf/i);

    // A re-upload that cannot be read fails without taking the document's earlier chunks away.
    const kept = await queueDocument(env, good.id, 'kept.txt', { text: 'Earlier readable text.' });
    expect(await settled(env, kept)).toMatchObject({ status: 'ready' });
    await queueDocument(env, good.id, 'kept.txt', { text: '' });
    expect(await settled(env, kept)).toMatchObject({ status: 'failed' });
    expect(await (await storeOf(good.collectionName)).count()).toBe(1);
  });
});

let embedded = 0;
/** Texts the fake provider was asked to embed, in total. */
function embeddedTexts(): number {
  embedded = env.fake.requests
    .filter((r) => r.path.endsWith('/embeddings'))
    .reduce((n, r) => n + ((r.body as { input: unknown[] }).input.length ?? 0), 0);
  return embedded;
}

describe('restart survival', () => {
  it('a row left processing with a lapsed lease is taken again by a new worker; three lapses fail it', async () => {
    const { id } = await addCollection(env);
    const other = await startEnv('Restart org');
    try {
      // Queued for `env`'s collection but claimed by nobody yet: written as a crashed worker left it.
      const docId = await queueDocument(other, (await addCollection(other)).id, 'crashed.txt', {
        text: 'Left behind by a crash.',
      });
      await other.q(
        "UPDATE rag_documents SET status = 'processing', attempts = 1, locked_until = now() - interval '1 minute' WHERE id = $1",
        [docId],
      );
      const exhausted = await queueDocument(other, (await addCollection(other)).id, 'doomed.txt', {
        text: 'Crashed three times.',
      });
      await other.q(
        "UPDATE rag_documents SET status = 'processing', attempts = 3, locked_until = now() - interval '1 minute' WHERE id = $1",
        [exhausted],
      );
      // A brand-new capability (a restarted process) over the same database and data directory.
      const restarted = createKnowledge(
        {
          db: other.db,
          models: (await import('@atelier/metering')).createModelAccess({
            db: other.db,
            box: (await import('./ingest-env')).box,
            timeoutMs: 10_000,
            urlPolicy: { mode: 'any' },
          }),
          box: (await import('./ingest-env')).box,
          urlPolicy: { mode: 'any' },
          loaderPolicy: { mode: 'any' },
          dataDir: other.dataDir,
          onError: () => undefined,
        },
        { pollMs: 100 },
      );
      restarted.startIngestionWorker({ concurrency: 1 });
      expect(await settled(other, docId)).toMatchObject({ status: 'ready', attempts: 2, chunkCount: 1 });
      const doomed = (await settled(other, exhausted))!;
      expect(doomed.status).toBe('failed');
      expect(doomed.error).toMatch(/3 times/);
      await restarted.close();
      expect(id).toBeTruthy();
    } finally {
      await other.close();
    }
  });
});

describe('resuming', () => {
  it('an interrupted ingestion taken again embeds only the chunks it had not stored yet', async () => {
    const { id, collectionName } = await addCollection(env, { chunkSize: 120, chunkOverlap: 0 });
    const docId = await queueDocument(env, id, 'resume.txt', { text: paragraphs(30) });
    expect(await settled(env, docId)).toMatchObject({ status: 'ready', chunkCount: 30 });
    // As a crash would leave it: 20 of 30 chunks stored, the upload still on disk, the lease lapsed.
    const { store, count } = await storeOf(collectionName);
    await store.deleteWhere(collectionName, { field: 'chunk_index', op: 'gte', value: 20 });
    const path = join('uploads', `${docId}-resume`);
    await writeFile(join(env.dataDir, path), paragraphs(30));
    const before = embeddedTexts();
    await env.q(
      "UPDATE rag_documents SET status = 'processing', storage_path = $2, chunk_count = 20, attempts = 1, locked_until = now() - interval '1 second' WHERE id = $1",
      [docId, path],
    );
    env.knowledge.notifyIngestion();
    expect(await settled(env, docId)).toMatchObject({
      status: 'ready',
      chunkCount: 30,
      chunksSkipped: 20,
      attempts: 2,
    });
    expect(embeddedTexts() - before).toBe(10);
    expect(await count()).toBe(30);
    // The upload is removed once its document is ready.
    expect(existsSync(join(env.dataDir, path))).toBe(false);
  });
});

describe('the deferred vector index', () => {
  it('is built once its collection stays drained, not each time the queue empties', async () => {
    // A capability of its own (its own data directory): only its worker takes these documents. On
    // PostgreSQL a database of its own too: a worker of another test file, starting, builds the index of
    // every drained collection it finds, this one's included.
    const dataDir = await mkdtemp(join(tmpdir(), 'atelier-index-delay-'));
    const own = await startEnv('Index delay org', {
      ...(process.env.DATABASE_URL ? { database: await isolatedTestDatabase() } : {}),
      dataDir,
      indexDelayMs: 6_000,
    });
    try {
      const { id, collectionName } = await addCollection(own, { chunkSize: 200, chunkOverlap: 0 });
      const store = await own.knowledge.storeFor(builtin(own));
      const builds: string[] = [];
      const build = store.buildVectorIndex!.bind(store);
      store.buildVectorIndex = (name) => {
        builds.push(name);
        return build(name);
      };
      own.knowledge.startIngestionWorker({ concurrency: 1 });
      const first = await queueDocument(own, id, 'one.txt', { text: paragraphs(5) });
      expect(await settled(own, first)).toMatchObject({ status: 'ready' });
      // The queue of the collection is empty now; a second document comes before the delay is over.
      const second = await queueDocument(own, id, 'two.txt', { text: paragraphs(5, 'more ') });
      expect(await settled(own, second)).toMatchObject({ status: 'ready' });
      expect(await store.vectorSearchReady!(collectionName)).toBe(false);
      await expect.poll(() => store.vectorSearchReady!(collectionName), { timeout: 30_000 }).toBe(true);
      expect(builds.filter((name) => name === collectionName)).toEqual([collectionName]);
    } finally {
      await own.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('throughput', () => {
  it('measures chunks per second through the worker', async () => {
    const { id } = await addCollection(env, { chunkSize: 200, chunkOverlap: 0 });
    const started = performance.now();
    const docId = await queueDocument(env, id, 'bulk.txt', { text: paragraphs(1500, 'bulk ') });
    const row = (await settled(env, docId, 120_000))!;
    const seconds = (performance.now() - started) / 1000;
    expect(row.status).toBe('ready');
    expect(row.chunkCount).toBeGreaterThanOrEqual(700);
    console.log(
      `ingestion: ${row.chunkCount} chunks in ${seconds.toFixed(2)} s = ${Math.round(row.chunkCount / seconds)} chunks/s (${process.env.DATABASE_URL ? 'postgres' : 'pglite'})`,
    );
  });
});

describe('segments', () => {
  it('cuts long texts at paragraph boundaries, keeping every character', () => {
    const text = paragraphs(5000);
    const parts = segments(text, 10_000);
    expect(parts.join('')).toBe(text);
    expect(parts.length).toBeGreaterThan(40);
    for (const part of parts.slice(1)) expect(part.startsWith('\n\nParagraph')).toBe(true);
    expect(segments('short')).toEqual(['short']);
  });
});
