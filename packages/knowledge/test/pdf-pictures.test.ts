import { createCanvas, loadImage } from '@napi-rs/canvas';
import { degrees, PDFDocument, StandardFonts, type PDFImage, type PDFPage } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { parseDocument, renderPages } from '../src/index';

/** A picture of `width` × `height` pixels: white, a black block in its top left quarter. */
async function picture(width: number, height: number): Promise<Uint8Array> {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = 'white';
  g.fillRect(0, 0, width, height);
  g.fillStyle = 'black';
  g.fillRect(0, 0, Math.floor(width / 2), Math.floor(height / 2));
  return canvas.encode('png');
}

/** A Letter PDF whose pages are drawn by `draw` (text in Helvetica, pictures embedded once each). */
async function pdfOf(
  draw: (pages: () => PDFPage, text: (page: PDFPage, line: string, y: number) => void) => Promise<void>,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  await draw(
    () => pdf.addPage([612, 792]),
    (page, line, y) => page.drawText(line, { x: 72, y, size: 12, font }),
  );
  return pdf.save();
}

const embed = async (page: PDFPage, width: number, height: number): Promise<PDFImage> =>
  page.doc.embedPng(await picture(width, height));

/** The share of dark pixels of a JPEG's region (fractions of its size). */
async function darkShare(jpeg: Uint8Array, region: { x: number; y: number; w: number; h: number }) {
  const image = await loadImage(Buffer.from(jpeg));
  const canvas = createCanvas(image.width, image.height);
  const g = canvas.getContext('2d');
  g.drawImage(image, 0, 0);
  const { data } = g.getImageData(
    Math.floor(region.x * image.width),
    Math.floor(region.y * image.height),
    Math.max(1, Math.floor(region.w * image.width)),
    Math.max(1, Math.floor(region.h * image.height)),
  );
  let dark = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! + data[i + 1]! + data[i + 2]! < 150) dark++;
  return dark / (data.length / 4);
}

describe('a PDF page drawn for OCR', () => {
  it('shows what it draws after its first text (pdf.js hands fonts over with a call Node 20 lacks)', async () => {
    // A scanner's stamp first, then the scan under it: the page as an OCR model must see it.
    const data = await pdfOf(async (page, text) => {
      const p = page();
      text(p, 'Scanned by ACME Scan', 770);
      p.drawImage(await embed(p, 850, 1100), { x: 0, y: 0, width: 612, height: 792 });
    });
    const [drawn] = await renderPages({ data, type: 'pdf', drawings: [{ page: 1 }] });
    expect(drawn).toMatchObject({ page: 1, width: 1546, height: 2000 });
    // The scan's black quarter is there (it was white: the drawing stopped at the stamp).
    expect(await darkShare(drawn!.image, { x: 0.05, y: 0.1, w: 0.4, h: 0.35 })).toBeGreaterThan(0.95);
    expect(await darkShare(drawn!.image, { x: 0.55, y: 0.55, w: 0.4, h: 0.4 })).toBeLessThan(0.05);
  });
});

describe('parseDocument: the pictures on a PDF’s pages, when asked (for an OCR model)', () => {
  it('lists a screenshot with where it is shown and its own size; icons and small logos are left out', async () => {
    const data = await pdfOf(async (page, text) => {
      const p = page();
      text(p, 'Revenue by quarter, as the dashboard shows it:', 720);
      // 400 × 300 pixels shown 306 × 229.5 points, its top left at (72, 396) from the top.
      p.drawImage(await embed(p, 400, 300), { x: 72, y: 166.5, width: 306, height: 229.5 });
      // An icon (48 × 48 pixels) and a large picture shown as a 30-point logo.
      p.drawImage(await embed(p, 48, 48), { x: 400, y: 700, width: 48, height: 48 });
      p.drawImage(await embed(p, 600, 600), { x: 500, y: 700, width: 30, height: 30 });
      text(page(), 'A page of text alone.', 720);
    });
    const parsed = await parseDocument({ data, filename: 'report.pdf', pdfPictures: true });
    expect(parsed.pages).toEqual(['Revenue by quarter, as the dashboard shows it:', 'A page of text alone.']);
    expect(parsed.pictures).toEqual([
      {
        page: 1,
        box: {
          x: expect.closeTo(72 / 612, 4),
          y: expect.closeTo(396 / 792, 4),
          width: expect.closeTo(306 / 612, 4),
          height: expect.closeTo(229.5 / 792, 4),
        },
        pixels: { width: 400, height: 300 },
      },
    ]);
    // Not asked: the pictures are not looked for (that decodes them).
    expect((await parseDocument({ data, filename: 'report.pdf' })).pictures).toBeUndefined();
  });

  it('finds pictures on a turned page and inside forms (a page placed on a page), each once per page', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const png = await pdf.embedPng(await picture(500, 250));
    // (A page without text is read whole: only pages with text are looked at for pictures.)
    const caption = (page: PDFPage) => page.drawText('Figure 1', { x: 72, y: 30, size: 12, font });
    const turned = pdf.addPage([612, 792]);
    caption(turned);
    turned.setRotation(degrees(90));
    // Shown 200 × 100 points at (100, 500) of the unturned page, twice at the same place.
    turned.drawImage(png, { x: 100, y: 500, width: 200, height: 100 });
    turned.drawImage(png, { x: 100, y: 500, width: 200, height: 100 });
    // A page holding a picture (240 × 120 points at (100, 400)), placed at half size at (50, 50).
    const source = await PDFDocument.create();
    const inner = source.addPage([612, 792]);
    inner.drawImage(await source.embedPng(await picture(480, 240)), {
      x: 100,
      y: 400,
      width: 240,
      height: 120,
    });
    // (pdf-lib writes an embedded picture when its document is saved.)
    const [form] = await pdf.embedPdf(await source.save());
    const placed = pdf.addPage([612, 792]);
    caption(placed);
    placed.drawPage(form!, { x: 50, y: 50, xScale: 0.5, yScale: 0.5 });
    const parsed = await parseDocument({ data: await pdf.save(), filename: 'turned.pdf', pdfPictures: true });
    const near = (x: number, y: number, width: number, height: number) => ({
      x: expect.closeTo(x, 4),
      y: expect.closeTo(y, 4),
      width: expect.closeTo(width, 4),
      height: expect.closeTo(height, 4),
    });
    expect(parsed.pictures).toEqual([
      // Turned a quarter clockwise, the page is 792 wide and 612 high: the picture is 100 wide, 200
      // high, its top left 500 from the left and 100 from the top.
      { page: 1, box: near(500 / 792, 100 / 612, 100 / 792, 200 / 612), pixels: { width: 500, height: 250 } },
      // Half size: 120 × 60 points at (100, 250), its top 792 - 310 = 482 from the top.
      { page: 2, box: near(100 / 612, 482 / 792, 120 / 612, 60 / 792), pixels: { width: 480, height: 240 } },
    ]);
  });

  it('a picture is drawn at its own size for OCR: its place on the page, cut out', async () => {
    const data = await pdfOf(async (page, text) => {
      const p = page();
      text(p, 'Caption above the screenshot.', 720);
      p.drawImage(await embed(p, 400, 300), { x: 72, y: 166.5, width: 306, height: 229.5 });
    });
    const { pictures = [] } = await parseDocument({ data, filename: 'report.pdf', pdfPictures: true });
    const drawings = pictures.map((p) => ({ page: p.page!, box: p.box!, pixels: p.pixels! }));
    const [drawn] = await renderPages({ data, type: 'pdf', drawings });
    expect(drawn).toMatchObject({ page: 1, width: 400, height: 300 });
    // The picture's black quarter fills the top left of what was drawn, and nothing else of the page.
    expect(await darkShare(drawn!.image, { x: 0.05, y: 0.05, w: 0.4, h: 0.4 })).toBeGreaterThan(0.95);
    expect(await darkShare(drawn!.image, { x: 0.55, y: 0.55, w: 0.4, h: 0.4 })).toBeLessThan(0.05);
  });

  it('a searchable scan is seen as one after three such pages: its other pages are not decoded to look', async () => {
    const layer = 'Minutes of the meeting held on the third of March about the budget. '.repeat(4);
    const make = (searchable: number) =>
      pdfOf(async (page, text) => {
        for (let i = 0; i < searchable; i++) {
          const p = page();
          p.drawImage(await embed(p, 850, 1100), { x: 0, y: 0, width: 612, height: 792 });
          for (let line = 0; line < 4; line++)
            text(p, layer.slice(line * 70, line * 70 + 70), 700 - line * 14);
        }
        const p = page();
        text(p, 'Revenue by quarter:', 720);
        p.drawImage(await embed(p, 400, 300), { x: 72, y: 166.5, width: 306, height: 229.5 });
      });
    const pagesOf = async (data: Uint8Array) =>
      ((await parseDocument({ data, filename: 'minutes.pdf', pdfPictures: true })).pictures ?? []).map(
        (p) => p.page,
      );
    // The scans are listed (they tell the page is a searchable scan), and so is the screenshot after two.
    expect(await pagesOf(await make(2))).toEqual([1, 2, 3]);
    expect(await pagesOf(await make(3))).toEqual([1, 2, 3]);
  });
});
