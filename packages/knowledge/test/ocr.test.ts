import { readFileSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';
import CFB from 'cfb';
import { strToU8, unzipSync, zipSync } from 'fflate';
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

/** A JPEG as a phone writes it: stored sideways, with the EXIF orientation (6: turn a quarter clockwise). */
function withOrientation(jpeg: Uint8Array, orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('II*\0', 0, 'latin1');
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(1, 8);
  tiff.writeUInt16LE(0x0112, 10);
  tiff.writeUInt16LE(3, 12);
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt16LE(orientation, 18);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const marker = Buffer.from([0xff, 0xe1, 0, 0]);
  marker.writeUInt16BE(payload.length + 2, 2);
  const bytes = Buffer.from(jpeg);
  return Buffer.concat([bytes.subarray(0, 2), marker, payload, bytes.subarray(2)]);
}

async function picture(width: number, height: number, format: 'jpeg' | 'png'): Promise<Uint8Array> {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  if (format === 'jpeg') {
    g.fillStyle = 'white';
    g.fillRect(0, 0, width, height);
  }
  g.fillStyle = 'black';
  g.fillRect(10, 10, Math.floor(width / 3), Math.floor(height / 4));
  return format === 'jpeg' ? canvas.encode('jpeg', 90) : canvas.encode('png');
}

describe('images read by the collection OCR model', () => {
  it('a sideways phone photo is turned upright, made 2,000 pixels on its long side, and read once', async () => {
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const before = await logRows(env, env.models.ocr);
    const photo = withOrientation(await picture(4000, 3000, 'jpeg'), 6);
    const documentId = await queueDocument(env, id, 'whiteboard.jpg', { data: photo });
    expect(await settled(env, documentId)).toMatchObject({
      status: 'ready',
      type: 'image',
      ocrPages: 1,
      chunkCount: 1,
      error: null,
    });
    expect(await logRows(env, env.models.ocr)).toBe(before + 1);
    const answer = await env.knowledge.query(env.scope, id, { query: 'whiteboard', top_k: 5 });
    expect(answer.documents).toEqual([
      expect.objectContaining({
        // Stored 4,000 × 3,000 on its side: shown (and sent) upright, 1,500 × 2,000.
        content: expect.stringMatching(/^OCR text of \d+ bytes \(a 1500×2000 JPEG\)$/),
        metadata: expect.objectContaining({ type: 'image', ocr: true, filename: 'whiteboard.jpg' }),
      }),
    ]);
  });

  it('a small PNG is sent at its own size, never enlarged', async () => {
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const documentId = await queueDocument(env, id, 'receipt.png', { data: await picture(300, 200, 'png') });
    expect(await settled(env, documentId)).toMatchObject({ status: 'ready', ocrPages: 1 });
    const answer = await env.knowledge.query(env.scope, id, { query: 'receipt', top_k: 5 });
    expect(answer.documents.map((d) => d.content)).toEqual([
      expect.stringMatching(/^OCR text of \d+ bytes \(a 300×200 JPEG\)$/),
    ]);
  });

  it('without an OCR model, an image fails and says how to read it', async () => {
    const { id } = await addCollection(env);
    const documentId = await queueDocument(env, id, 'scan.png', { data: await picture(200, 100, 'png') });
    expect(await settled(env, documentId)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^An image is read by an OCR model; choose one in the collection/),
    });
  });
});

describe('scanned PDF pages read by the collection OCR model', () => {
  it('pages without text are drawn and read, one metered call each; typed pages are not', async () => {
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const before = await logRows(env, env.models.ocr);
    const requestsBefore = env.fake.requests.filter((r) => r.path === '/v1/ocr').length;
    const documentId = await queueDocument(env, id, 'mixed.pdf', {
      data: await pdfOf([null, 'Typed page about the travel policy.', null]),
    });
    const row = (await settled(env, documentId))!;
    expect(row).toMatchObject({ status: 'ready', progress: 1, ocrPages: 2, chunkCount: 3, error: null });
    expect(await logRows(env, env.models.ocr)).toBe(before + 2);
    // Each page went to the model as a JPEG drawn 2,000 pixels high (Letter: 1,546 wide).
    const ocr = env.fake.requests.filter((r) => r.path === '/v1/ocr');
    expect(ocr).toHaveLength(requestsBefore + 2);

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

  it('pages read before are not sent again: a re-upload pays only for its new pages', async () => {
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const calls = () => logRows(env, env.models.ocr);
    const cached = async (documentId: string) =>
      Number(
        (
          await env.q<{ n: string }>('SELECT count(*) AS n FROM rag_document_ocr WHERE document_id = $1', [
            documentId,
          ])
        )[0]!.n,
      );

    const before = await calls();
    const documentId = await queueDocument(env, id, 'minutes.pdf', { data: await pdfOf([null, null]) });
    expect(await settled(env, documentId)).toMatchObject({ status: 'ready', ocrPages: 2 });
    expect(await calls()).toBe(before + 2);
    expect(await cached(documentId)).toBe(2);

    // The same file again: both pages drawn again, neither sent.
    await queueDocument(env, id, 'minutes.pdf', { data: await pdfOf([null, null]) });
    expect(await settled(env, documentId)).toMatchObject({ status: 'ready', ocrPages: 2, chunksSkipped: 2 });
    expect(await calls()).toBe(before + 2);

    // A third scanned page (its own text): only it is sent.
    await queueDocument(env, id, 'minutes.pdf', { data: await pdfOf([null, null, null]) });
    expect(await settled(env, documentId)).toMatchObject({ status: 'ready', ocrPages: 3 });
    expect(await calls()).toBe(before + 3);
    expect(await cached(documentId)).toBe(3);

    // The model record now names another model at the provider: its pages are read again.
    const { name } = (
      await env.q<{ name: string }>('SELECT model_name AS name FROM models WHERE id = $1', [env.models.ocr])
    )[0]!;
    await env.q('UPDATE models SET model_name = $2 WHERE id = $1', [env.models.ocr, 'pixtral-large-latest']);
    try {
      await queueDocument(env, id, 'minutes.pdf', { data: await pdfOf([null, null, null]) });
      expect(await settled(env, documentId)).toMatchObject({ status: 'ready', ocrPages: 3 });
      expect(await calls()).toBe(before + 6);
      expect(await cached(documentId)).toBe(3);
    } finally {
      await env.q('UPDATE models SET model_name = $2 WHERE id = $1', [env.models.ocr, name]);
    }

    // Pages the document no longer has are forgotten; the document's readings go with it.
    await queueDocument(env, id, 'minutes.pdf', { data: await pdfOf([null]) });
    expect(await settled(env, documentId)).toMatchObject({ status: 'ready', ocrPages: 1 });
    expect(await calls()).toBe(before + 7);
    expect(await cached(documentId)).toBe(1);
    await env.q('DELETE FROM rag_documents WHERE id = $1', [documentId]);
    expect(await cached(documentId)).toBe(0);
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
      error: expect.stringMatching(/501 scanned pages; OCR reads at most 500/),
    });
    expect(await logRows(env, env.models.ocr)).toBe(before);
  });
});

describe('pictures inside documents read by the collection OCR model', () => {
  const chunksOf = async (collectionId: string) =>
    (await env.knowledge.query(env.scope, collectionId, { query: 'picture', top_k: 10 })).documents
      .map((d) => ({ content: d.content, slide: d.metadata.slide, ocr: d.metadata.ocr }))
      .sort((a, b) => a.content.localeCompare(b.content));

  it('a Word document: its picture of text read once, after its text; the icon not sent; a re-upload sends nothing', async () => {
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const before = await logRows(env, env.models.ocr);
    const documentId = await queueDocument(env, id, 'invoice.docx', { fixture: 'pictures.docx' });
    expect(await settled(env, documentId)).toMatchObject({
      status: 'ready',
      type: 'docx',
      ocrPages: 0,
      ocrPictures: 1,
      chunkCount: 2,
    });
    expect(await logRows(env, env.models.ocr)).toBe(before + 1);
    expect(await chunksOf(id)).toEqual([
      { content: 'Before the picture.\n\nAfter.', slide: undefined, ocr: undefined },
      // Sent at its own size (400 × 300), never enlarged.
      {
        content: expect.stringMatching(/^OCR text of \d+ bytes \(a 400×300 JPEG\)$/),
        slide: undefined,
        ocr: true,
      },
    ]);
    await queueDocument(env, id, 'invoice.docx', { fixture: 'pictures.docx' });
    expect(await settled(env, documentId)).toMatchObject({
      status: 'ready',
      ocrPictures: 1,
      chunksSkipped: 2,
    });
    expect(await logRows(env, env.models.ocr)).toBe(before + 1);
  });

  it('slides (PPTX and ODP): a picture read is a chunk of its slide; an OpenDocument text too', async () => {
    for (const file of ['pictures.pptx', 'pictures.odp']) {
      const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
      const documentId = await queueDocument(env, id, file, { fixture: file });
      expect(await settled(env, documentId), file).toMatchObject({ status: 'ready', ocrPictures: 1 });
      expect(await chunksOf(id), file).toEqual([
        { content: 'First slide text.', slide: 1, ocr: undefined },
        { content: expect.stringMatching(/^OCR text of \d+ bytes \(a 400×300 JPEG\)$/), slide: 2, ocr: true },
        { content: 'Second slide.', slide: 2, ocr: undefined },
      ]);
    }
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const odt = await queueDocument(env, id, 'pictures.odt', { fixture: 'pictures.odt' });
    expect(await settled(env, odt)).toMatchObject({
      status: 'ready',
      type: 'odt',
      ocrPictures: 1,
      chunkCount: 2,
    });
  });

  it("a workbook: a sheet's screenshot is read after that sheet's rows; the icon is not sent", async () => {
    const files = unzipSync(readFileSync(new URL('./fixtures/sample.xlsx', import.meta.url)));
    const rels = (targets: [string, string][]) =>
      strToU8(
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          targets
            .map(
              ([type, target], i) =>
                `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`,
            )
            .join('') +
          '</Relationships>',
      );
    // The "Orders" sheet (sheet1.xml) shows a screenshot and an icon in its drawing.
    files['xl/worksheets/_rels/sheet1.xml.rels'] = rels([['drawing', '../drawings/drawing1.xml']]);
    files['xl/drawings/drawing1.xml'] = strToU8(
      '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ' +
        'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
        '<xdr:oneCellAnchor><xdr:pic><xdr:blipFill><a:blip r:embed="rId1"/></xdr:blipFill></xdr:pic></xdr:oneCellAnchor>' +
        '<xdr:oneCellAnchor><xdr:pic><xdr:blipFill><a:blip r:embed="rId2"/></xdr:blipFill></xdr:pic></xdr:oneCellAnchor>' +
        '</xdr:wsDr>',
    );
    files['xl/drawings/_rels/drawing1.xml.rels'] = rels([
      ['image', '../media/image1.png'],
      ['image', '../media/icon.png'],
    ]);
    files['xl/media/image1.png'] = new Uint8Array(await picture(400, 300, 'png'));
    files['xl/media/icon.png'] = new Uint8Array(await picture(24, 24, 'png'));
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const before = await logRows(env, env.models.ocr);
    const documentId = await queueDocument(env, id, 'report.xlsx', { data: zipSync(files) });
    expect(await settled(env, documentId)).toMatchObject({ status: 'ready', type: 'xlsx', ocrPictures: 1 });
    expect(await logRows(env, env.models.ocr)).toBe(before + 1);
    const chunks = (await env.knowledge.query(env.scope, id, { query: 'orders', top_k: 20 })).documents
      .sort((a, b) => Number(a.metadata.chunk_index) - Number(b.metadata.chunk_index))
      .map((d) => ({ sheet: d.metadata.sheet, ocr: d.metadata.ocr, content: d.content }));
    const read = chunks.findIndex((c) => c.ocr);
    expect(chunks[read]).toEqual({
      sheet: 'Orders',
      ocr: true,
      content: expect.stringMatching(/\(a 400×300 JPEG\)$/),
    });
    // After the Orders sheet's rows, before the next sheet's.
    expect(chunks.slice(0, read).every((c) => c.sheet === 'Orders')).toBe(true);
    expect(chunks.slice(read + 1).every((c) => c.sheet !== 'Orders')).toBe(true);
    expect(chunks.slice(read + 1).length).toBeGreaterThan(0);
  });

  it("an OpenDocument spreadsheet: a sheet's picture is a chunk of that sheet", async () => {
    const files = unzipSync(readFileSync(new URL('./fixtures/sample.ods', import.meta.url)));
    const content = new TextDecoder().decode(files['content.xml']);
    files['content.xml'] = strToU8(
      content.replace(
        '<table:table table:name="Orders">',
        '<table:table table:name="Orders"><table:shapes><draw:frame><draw:image xlink:href="Pictures/shot.png"/></draw:frame></table:shapes>',
      ),
    );
    files['Pictures/shot.png'] = new Uint8Array(await picture(400, 300, 'png'));
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const documentId = await queueDocument(env, id, 'orders.ods', { data: zipSync(files) });
    expect(await settled(env, documentId)).toMatchObject({ status: 'ready', type: 'ods', ocrPictures: 1 });
    const read = (await env.knowledge.query(env.scope, id, { query: 'orders', top_k: 20 })).documents.filter(
      (d) => d.metadata.ocr,
    );
    expect(read.map((d) => [d.metadata.sheet, d.content])).toEqual([
      ['Orders', expect.stringMatching(/\(a 400×300 JPEG\)$/)],
    ]);
  });

  it('without an OCR model, a document with pictures is read for its text alone, with no call', async () => {
    const { id } = await addCollection(env);
    const before = await logRows(env, env.models.ocr);
    const documentId = await queueDocument(env, id, 'invoice.docx', { fixture: 'pictures.docx' });
    expect(await settled(env, documentId)).toMatchObject({ status: 'ready', ocrPictures: 0, chunkCount: 1 });
    expect(await logRows(env, env.models.ocr)).toBe(before);
    // A scan pasted into Word, and nothing else: it fails saying how to read it.
    const files = unzipSync(readFileSync(new URL('./fixtures/pictures.docx', import.meta.url)));
    const body = new TextDecoder().decode(files['word/document.xml']);
    files['word/document.xml'] = strToU8(body.replace(/<w:t>[^<]*<\/w:t>/g, ''));
    const scan = await queueDocument(env, id, 'scan.docx', { data: zipSync(files) });
    expect(await settled(env, scan)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/its pictures are read by an OCR model; choose one in the collection/),
    });
  });
});

describe('pictures on PDF pages read by the collection OCR model', () => {
  /** A page of typed text with a 400 × 300 screenshot under it. */
  async function typedWithScreenshot(pdf: PDFDocument, line: string) {
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([612, 792]);
    page.drawText(line, { x: 72, y: 700, size: 12, font });
    const screenshot = await pdf.embedPng(await picture(400, 300, 'png'));
    page.drawImage(screenshot, { x: 72, y: 300, width: 300, height: 225 });
  }
  /** A collection's chunks in the document's order. */
  const chunksOf = async (collectionId: string) =>
    (await env.knowledge.query(env.scope, collectionId, { query: 'page', top_k: 10 })).documents
      .sort((a, b) => Number(a.metadata.chunk_index) - Number(b.metadata.chunk_index))
      .map((d) => ({ content: d.content, page: d.metadata.page, ocr: d.metadata.ocr }));

  it('a typed page’s screenshot is read at its own size after the page’s text; a scan under a stamp is read whole', async () => {
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const before = await logRows(env, env.models.ocr);
    const pdf = await PDFDocument.create({ updateMetadata: false });
    await typedWithScreenshot(pdf, 'Revenue by quarter, from the dashboard.');
    // A scan stamped with its page number: its pictures cover the page, its text is a few characters.
    await scannedPage(pdf, 'Signed contract');
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf.getPage(1).drawText('Page 2', { x: 290, y: 20, size: 9, font });
    const documentId = await queueDocument(env, id, 'report.pdf', { data: await pdf.save() });
    expect(await settled(env, documentId)).toMatchObject({
      status: 'ready',
      ocrPages: 1,
      ocrPictures: 1,
      chunkCount: 3,
    });
    expect(await logRows(env, env.models.ocr)).toBe(before + 2);
    expect(await chunksOf(id)).toEqual([
      { content: 'Revenue by quarter, from the dashboard.', page: 1, ocr: undefined },
      { content: expect.stringMatching(/^OCR text of \d+ bytes \(a 400×300 JPEG\)$/), page: 1, ocr: true },
      // The stamp is on the drawn page: the model reads it with the rest; no chunk holds it alone.
      { content: expect.stringMatching(/^OCR text of \d+ bytes \(a 1546×2000 JPEG\)$/), page: 2, ocr: true },
    ]);
  });

  it('a searchable scan (its own OCR text over the picture) is not read again; without an OCR model no picture is looked for', async () => {
    const searchable = await PDFDocument.create({ updateMetadata: false });
    await scannedPage(searchable, 'Minutes of the meeting');
    const font = await searchable.embedFont(StandardFonts.Helvetica);
    const layer = 'Minutes of the meeting held on the third of March about the budget. '.repeat(4);
    searchable.getPage(0).drawText(layer, { x: 40, y: 700, size: 8, font, maxWidth: 530, lineHeight: 10 });
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const before = await logRows(env, env.models.ocr);
    const scan = await queueDocument(env, id, 'minutes.pdf', { data: await searchable.save() });
    expect(await settled(env, scan)).toMatchObject({ status: 'ready', ocrPages: 0, ocrPictures: 0 });
    expect(await logRows(env, env.models.ocr)).toBe(before);

    const plain = await addCollection(env);
    const typed = await PDFDocument.create({ updateMetadata: false });
    await typedWithScreenshot(typed, 'Revenue by quarter, from the dashboard.');
    const report = await queueDocument(env, plain.id, 'report.pdf', { data: await typed.save() });
    expect(await settled(env, report)).toMatchObject({ status: 'ready', ocrPictures: 0, chunkCount: 1 });
    expect(await logRows(env, env.models.ocr)).toBe(before);
  });
});

describe('pictures in emails read by the collection OCR model', () => {
  /** Base64 in lines of 76, as mail writers wrap it. */
  const wrapped = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64').replace(/.{76}/g, '$&\r\n');
  /** A collection's chunks in the document's order, with where each came from. */
  const chunksOf = async (collectionId: string) =>
    (await env.knowledge.query(env.scope, collectionId, { query: 'printer error', top_k: 10 })).documents
      .sort((a, b) => Number(a.metadata.chunk_index) - Number(b.metadata.chunk_index))
      .map((d) => ({ content: d.content, attachment: d.metadata.attachment, ocr: d.metadata.ocr }));

  it('a screenshot the message shows and a photo attached are read after the message; a logo is not', async () => {
    const mime = [
      'From: ana@example.com',
      'To: help@example.com',
      'Subject: Printer error',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="mixed"',
      '',
      '--mixed',
      'Content-Type: multipart/related; boundary="related"',
      '',
      '--related',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p>The printer shows this error:</p><img src="cid:shot@example.com"><img src="cid:logo@example.com">',
      '--related',
      'Content-Type: image/png',
      'Content-ID: <shot@example.com>',
      'Content-Transfer-Encoding: base64',
      '',
      wrapped(await picture(400, 300, 'png')),
      '--related',
      'Content-Type: image/png',
      'Content-ID: <logo@example.com>',
      'Content-Transfer-Encoding: base64',
      '',
      wrapped(await picture(120, 40, 'png')),
      '--related--',
      '--mixed',
      'Content-Type: image/jpeg; name="receipt.jpg"',
      'Content-Disposition: attachment; filename="receipt.jpg"',
      'Content-Transfer-Encoding: base64',
      '',
      wrapped(await picture(600, 400, 'jpeg')),
      '--mixed--',
      '',
    ].join('\r\n');
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const before = await logRows(env, env.models.ocr);
    const documentId = await queueDocument(env, id, 'printer.eml', { data: Buffer.from(mime) });
    expect(await settled(env, documentId)).toMatchObject({
      status: 'ready',
      type: 'email',
      ocrPages: 0,
      ocrPictures: 2,
      chunkCount: 3,
    });
    expect(await logRows(env, env.models.ocr)).toBe(before + 2);
    expect(await chunksOf(id)).toEqual([
      {
        content: expect.stringMatching(/^Subject: Printer error\n[^]*The printer shows this error:$/),
        attachment: undefined,
        ocr: undefined,
      },
      { content: expect.stringMatching(/\(a 400×300 JPEG\)$/), attachment: undefined, ocr: true },
      { content: expect.stringMatching(/\(a 600×400 JPEG\)$/), attachment: 'receipt.jpg', ocr: true },
    ]);
  });

  it('an Outlook message: the picture its body shows and an attached picture', async () => {
    // The sample message's inline logo and attached chart, made real pictures of 400 × 300.
    const container = CFB.read(readFileSync(new URL('./fixtures/sample.msg', import.meta.url)), {
      type: 'buffer',
    });
    const png = Buffer.from(await picture(400, 300, 'png'));
    for (const n of [1, 2]) {
      const entry = CFB.find(container, `/__attach_version1.0_#0000000${n}/__substg1.0_37010102`);
      entry!.content = png;
      entry!.size = png.length;
    }
    const { id } = await addCollection(env, { ocrModelId: env.models.ocr });
    const data = new Uint8Array(CFB.write(container, { type: 'buffer' }) as Buffer);
    const documentId = await queueDocument(env, id, 'kickoff.msg', { data });
    expect(await settled(env, documentId)).toMatchObject({ status: 'ready', ocrPictures: 2 });
    const read = (await chunksOf(id)).filter((c) => c.ocr);
    expect(read).toEqual([
      { content: expect.stringMatching(/\(a 400×300 JPEG\)$/), attachment: undefined, ocr: true },
      { content: expect.stringMatching(/\(a 400×300 JPEG\)$/), attachment: 'chart.png', ocr: true },
    ]);
  });
});
