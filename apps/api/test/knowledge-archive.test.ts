import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ragDocuments } from '@atelier/db';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { eq } from 'drizzle-orm';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadsDirOf } from '../src/services/knowledge/collections-service';
import { createOrg, startTestApp, type Org, type TestApp } from './helpers';
import { builtinCollection, upload } from './knowledge-fixtures';

let t: TestApp;
let fake: FakeProvider;
let org: Org;
let other: Org;
let collectionId: string;

beforeAll(async () => {
  // Nothing is ingested here: an archive's files become documents as any uploaded file does.
  t = await startTestApp({ INGEST_DOCUMENTS: 'false' });
  fake = await startFakeProvider();
  org = await createOrg(t.app);
  other = await createOrg(t.app);
  const ws = await org.workspace(org.admin, 'Archives');
  ({ collectionId } = await builtinCollection(t.app, org, ws, fake.url, 'Archives'));
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const token = () => org.admin.token;
const dir = () => uploadsDirOf(t.app.config.dataDir, org.id, collectionId);
const files = () => (existsSync(dir()) ? readdirSync(dir()) : []);
const zip = (entries: Zippable) => Buffer.from(zipSync(entries));
const sendZip = (filename: string, entries: Zippable | Buffer, fields?: Record<string, string>) =>
  upload(
    t.app,
    token(),
    collectionId,
    [{ filename, content: Buffer.isBuffer(entries) ? entries : zip(entries), mimeType: 'application/zip' }],
    fields,
  );
const names = (documents: { filename: string }[]) => documents.map((d) => d.filename).sort();
const rowsNamed = async (prefix: string) =>
  (await t.app.db.select().from(ragDocuments).where(eq(ragDocuments.collectionId, collectionId))).filter(
    (r) => r.filename.startsWith(prefix),
  );

describe('an uploaded .zip is taken as a folder', () => {
  it('gives each file of a type Atelier reads as a document named by its path; says which it left out and why', async () => {
    const leave = strToU8('# Leave\n\nTwenty-five days a year.');
    const res = await sendZip(
      'policies.zip',
      {
        'leave.md': leave,
        '2024': { 'travel.txt': strToU8('Trains are refunded.') },
        'logo.svg': strToU8('<svg/>'),
        'scan.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
        'old.zip': zip({ 'a.txt': strToU8('a') }),
        // Hidden files and macOS bookkeeping go without a word.
        '.DS_Store': strToU8('x'),
        __MACOSX: { '._leave.md': strToU8('x') },
      },
      { metadata: JSON.stringify({ department: 'HR' }) },
    );
    expect(res.status).toBe(202);
    expect(names(res.body.documents)).toEqual(['policies/2024/travel.txt', 'policies/leave.md']);
    expect(res.body.skipped).toEqual([
      { filename: 'policies/logo.svg', code: 'unsupported_type', detail: 'unsupported document type ".svg"' },
      {
        filename: 'policies/scan.png',
        code: 'ocr_model_missing',
        detail:
          "an image is read by the collection's OCR model; choose one in the collection's settings first",
      },
      {
        filename: 'policies/old.zip',
        code: 'nested_archive',
        detail: 'an archive inside an archive is not opened; upload it on its own',
      },
    ]);
    // Each is an upload of its own: its bytes, size and hash; the form's fields; queued for ingestion.
    const [row] = await rowsNamed('policies/leave.md');
    expect(row).toMatchObject({
      status: 'queued',
      sizeBytes: leave.byteLength,
      sha256: createHash('sha256').update(leave).digest('hex'),
      metadata: { department: 'HR' },
    });
    expect(readFileSync(join(t.app.config.dataDir, row!.storagePath!))).toEqual(Buffer.from(leave));
    // The archive itself is not kept: only its two files are on disk.
    expect(files()).toHaveLength(2);
  });

  it('a zipped folder keeps its own folder, not the archive name twice; an archive in a folder keeps that folder', async () => {
    const folder = { handbook: { 'a.md': strToU8('# A'), b: { 'c.txt': strToU8('C') } } };
    const res = await sendZip('handbook.zip', folder);
    expect(names(res.body.documents)).toEqual(['handbook/a.md', 'handbook/b/c.txt']);
    expect(res.body.skipped).toEqual([]);
    const nested = await sendZip('exports/2024/handbook.zip', folder);
    expect(names(nested.body.documents)).toEqual([
      'exports/2024/handbook/a.md',
      'exports/2024/handbook/b/c.txt',
    ]);
    // The same archive again: the same documents, none twice.
    const again = await sendZip('handbook.zip', folder);
    expect(again.body.documents.map((d: { id: string }) => d.id).sort()).toEqual(
      res.body.documents.map((d: { id: string }) => d.id).sort(),
    );
    expect(await rowsNamed('handbook/')).toHaveLength(2);
  });

  it('a damaged file in it is left out, the others taken', async () => {
    const good = zip({ 'ok.txt': strToU8('fine'), 'bad.txt': strToU8('b'.repeat(5000)) });
    // Corrupt bad.txt's deflated bytes (its local header is 30 bytes and its name 7 before them).
    const at = good.indexOf(Buffer.from('bad.txt')) + 'bad.txt'.length;
    good.fill(0xff, at, at + 20);
    const res = await sendZip('mixed.zip', good);
    expect(res.status).toBe(202);
    expect(names(res.body.documents)).toEqual(['mixed/ok.txt']);
    expect(res.body.skipped).toEqual([
      { filename: 'mixed/bad.txt', code: 'damaged', detail: 'damaged or encrypted in the archive' },
    ]);
    // A name no document can have (over 255 characters) is left out, not the whole upload.
    const long = `${'n'.repeat(300)}.txt`;
    const named = await sendZip('names.zip', { 'short.txt': strToU8('s'), [long]: strToU8('l') });
    expect(names(named.body.documents)).toEqual(['names/short.txt']);
    expect(named.body.skipped).toEqual([
      {
        filename: long,
        code: 'invalid_filename',
        detail: 'its name is longer than 255 characters or holds control characters',
      },
    ]);
  });

  it('refuses, keeping nothing: no ZIP, nothing readable in it, more than 1,000 documents', async () => {
    const before = files();
    const notZip = await sendZip('notes.zip', Buffer.from('just text'));
    expect(notZip).toMatchObject({ status: 422, body: { code: 'unreadable_archive' } });
    expect(notZip.body.detail).toContain('"notes.zip": not a readable ZIP archive');
    const nothing = await sendZip('pictures.zip', { 'a.svg': strToU8('<svg/>'), 'b.exe': strToU8('MZ') });
    expect(nothing).toMatchObject({ status: 422, body: { code: 'no_documents' } });
    expect(nothing.body.detail).toContain('"pictures/a.svg": unsupported document type ".svg"');
    const many: Zippable = {};
    for (let i = 0; i <= 1000; i++) many[`n${i}.txt`] = strToU8(`note ${i}`);
    const tooMany = await sendZip('notes.zip', many);
    expect(tooMany).toMatchObject({ status: 413, body: { code: 'archive_too_large' } });
    expect(tooMany.body.detail).toContain('holds 1001 documents; an archive may give at most 1000');
    expect(files()).toEqual(before);
    expect(await rowsNamed('notes/')).toEqual([]);
  });

  it('another organization cannot upload an archive to this collection', async () => {
    const res = await upload(t.app, other.admin.token, collectionId, [
      { filename: 'x.zip', content: zip({ 'a.txt': strToU8('a') }), mimeType: 'application/zip' },
    ]);
    expect(res.status).toBe(404);
    expect(await rowsNamed('x/')).toEqual([]);
  });
});
