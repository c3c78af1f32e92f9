import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../src/index';
import { dropRunningLines, layoutText, pdfLines, type PdfLine } from '../src/parse/pdf-layout';

/** A line of 10-point text at baseline y. */
const line = (text: string, y: number, size = 10): PdfLine => ({ text, y, size });

describe('PDF layout: lines, paragraphs, cut words', () => {
  it('pdf.js items make lines at their end-of-line marks, with the first baseline and the tallest item', () => {
    const item = (str: string, y: number, height: number, hasEOL = false) => ({
      str,
      transform: [1, 0, 0, 1, 72, y],
      height,
      hasEOL,
    });
    expect(
      pdfLines([
        item('Hello ', 700, 10),
        item('world', 700, 12, true),
        item('', 0, 0, true),
        item('Next', 686, 10),
      ]),
    ).toEqual([line('Hello world', 700, 12), line('Next', 686, 10)]);
  });

  it('a wider gap, a new font size or a jump up ends a paragraph; line spacing does not', () => {
    const text = layoutText([
      line('Title', 760, 18),
      line('First line of a paragraph', 730),
      line('its second line.', 718),
      line('A new paragraph after a gap.', 690),
      line('Top of the next column', 740),
    ]);
    expect(text).toBe(
      'Title\n\nFirst line of a paragraph\nits second line.\n\nA new paragraph after a gap.\n\nTop of the next column',
    );
  });

  it('a word cut by a hyphen at a line end is joined; a hyphen before a capital or a number stays', () => {
    expect(layoutText([line('the infor-', 700), line('mation desk opens', 688), line('at nine.', 676)])).toBe(
      'the information\ndesk opens\nat nine.',
    );
    expect(layoutText([line('Jean-', 700), line('Pierre and the 2024-', 688), line('2025 plan', 676)])).toBe(
      'Jean-\nPierre and the 2024-\n2025 plan',
    );
    expect(layoutText([line('a one-word cut-', 700), line('off', 688)])).toBe('a one-word cutoff');
  });
});

describe('PDF layout: running headers and footers', () => {
  const page = (n: number, body: string[]) => ({
    height: 800,
    lines: [
      line('ACME Corp — Internal handbook', 780),
      ...body.map((text, i) => line(text, 700 - 14 * i)),
      line(`Page ${n} of 4`, 30),
    ],
  });
  const texts = (pages: PdfLine[][]) => pages.map((lines) => lines.map((l) => l.text));

  it('a line on the edge of most pages, as written or with the page number counting along, is dropped', () => {
    const pages = [1, 2, 3, 4].map((n) => page(n, [`Body of page ${n}.`]));
    expect(texts(dropRunningLines(pages))).toEqual([1, 2, 3, 4].map((n) => [`Body of page ${n}.`]));
  });

  it('numbered headings at the edges are kept (their numbers do not follow the pages), as are lines below the edges', () => {
    const pages = [1, 2, 3, 4].map((n) => ({
      height: 800,
      lines: [
        line(`Article ${n * 7}`, 760),
        line(`Scope of article ${n * 7}`, 745),
        line('The same third line on every page', 730),
        line('Text.', 400),
      ],
    }));
    expect(texts(dropRunningLines(pages))[2]).toEqual([
      'Article 21',
      'Scope of article 21',
      'The same third line on every page',
      'Text.',
    ]);
  });

  it('a short document keeps every line (too few pages to tell a running line)', () => {
    const pages = [1, 2].map((n) => page(n, ['Body.']));
    expect(texts(dropRunningLines(pages))[0]).toEqual([
      'ACME Corp — Internal handbook',
      'Body.',
      'Page 1 of 4',
    ]);
  });
});

describe('PDF layout: through pdf.js on a real file', () => {
  it('paragraphs apart, the running header and the page numbers gone, a cut word joined', async () => {
    const pdf = await PDFDocument.create({ updateMetadata: false });
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let n = 1; n <= 4; n++) {
      const p = pdf.addPage([595, 842]);
      p.drawText('Travel policy 2026', { x: 72, y: 800, size: 9, font });
      p.drawText(`Policy ${n} of four`, { x: 72, y: 740, size: 16, font });
      p.drawText('Flights longer than six hours may be booked in premium', { x: 72, y: 710, size: 11, font });
      p.drawText(`economy; the booking goes through the travel por-`, { x: 72, y: 696, size: 11, font });
      p.drawText('tal before departure.', { x: 72, y: 682, size: 11, font });
      p.drawText(`Receipts are kept for page ${n}.`, { x: 72, y: 650, size: 11, font });
      p.drawText(`- ${n} -`, { x: 290, y: 30, size: 9, font });
    }
    const doc = await parseDocument({ data: await pdf.save(), filename: 'policy.pdf' });
    expect(doc.pages?.[2]).toBe(
      'Policy 3 of four\n\nFlights longer than six hours may be booked in premium\neconomy; the booking goes through the travel portal\nbefore departure.\n\nReceipts are kept for page 3.',
    );
    expect(doc.text).not.toMatch(/Travel policy 2026|- \d -/);
  });
});
