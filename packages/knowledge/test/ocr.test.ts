import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCollection, logRows, queueDocument, settled, startEnv, type Env } from './ingest-env';

let env: Env;
beforeAll(async () => {
  env = await startEnv('OCR test org');
  env.knowledge.startIngestionWorker({ concurrency: 1 });
});
afterAll(async () => {
  await env?.close();
});

/** A page as a scanner makes it: a picture of text, no text layer. */
async function scannedPage(pdf: PDFDocument, line: string) {
  const canvas = createCanvas(850, 1100);
  const g = canvas.getContext('2d');
  g.fillStyle = 'white';
  g.fillRect(0, 0, 850, 1100);
  g.fillStyle = 'black';
  g.font = '32px sans-serif';
  g.fillText(line, 60, 120);
  const image = await pdf.embedPng(await canvas.encode('png'));
  pdf.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
}

/** A PDF of scanned pages and typed ones (`null`: a scan), Letter size. */
async function pdfOf(pages: (string | null)[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const [i, text] of pages.entries()) {
    if (text === null) await scannedPage(pdf, `Scanned page ${i + 1}`);
    else pdf.addPage([612, 792]).drawText(text, { x: 72, y: 700, size: 12, font });
  }
  return pdf.save();
}

describe('scanned PDF pages read by the collection OCR model', () => {
  it('pages without text are drawn and read, one metered call each; typed pages are not', async () => {
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const documentId = await queueDocument(env, id, 'mixed.pdf', {
      data: await pdfOf([null, 'Typed page about the travel policy.', null]),
    });
    const row = (await settled(env, documentId))!;
    expect(row).toMatchObject({ status: 'ready', progress: 1, ocrPages: 2, chunkCount: 3, error: null });
    expect(await logRows(env, env.models.ocr)).toBe(2);
    // Each page went to the model as a JPEG drawn 2,000 pixels high (Letter: 1,546 wide).
    const ocr = env.fake.requests.filter((r) => r.path === '/v1/ocr');
    expect(ocr).toHaveLength(2);

    const answer = await env.knowledge.query(env.scope, id, { query: 'OCR text', top_k: 10 });
    const pages = answer.documents
      .map((d) => ({ page: d.metadata.page, ocr: d.metadata.ocr, content: d.content }))
      .sort((a, b) => Number(a.page) - Number(b.page));
    expect(pages).toEqual([
      { page: 1, ocr: true, content: expect.stringMatching(/^OCR text of \d+ bytes \(a 1546×2000 JPEG\)$/) },
      { page: 2, ocr: undefined, content: 'Typed page about the travel policy.' },
      { page: 3, ocr: true, content: expect.stringMatching(/^OCR text of \d+ bytes \(a 1546×2000 JPEG\)$/) },
    ]);
  });

  it('without an OCR model, a scanned PDF fails and says how to read it; pages with text are kept', async () => {
    const { id } = await addCollection(env);
    const scanned = await queueDocument(env, id, 'scan.pdf', { data: await pdfOf([null, null]) });
    expect(await settled(env, scanned)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/scanned PDF is read by an OCR model; choose one in the collection/),
    });
    const mixed = await queueDocument(env, id, 'mixed.pdf', { data: await pdfOf(['Typed page.', null]) });
    expect(await settled(env, mixed)).toMatchObject({ status: 'ready', chunkCount: 1, ocrPages: 0 });
  });

  it('a document with more scanned pages than OCR reads is refused before any call', async () => {
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const before = await logRows(env, env.models.ocr);
    const pdf = await PDFDocument.create({ updateMetadata: false });
    for (let i = 0; i < 501; i++) pdf.addPage([200, 200]);
    const documentId = await queueDocument(env, id, 'blank.pdf', { data: await pdf.save() });
    expect(await settled(env, documentId)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/501 pages without text; OCR reads at most 500/),
    });
    expect(await logRows(env, env.models.ocr)).toBe(before);
  });
});
