import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { openPdf } from './pdf-open';
import { pageKind, pictureCovers, picturesOnPage, type PdfPicture } from './pdf-pictures';
import { dropRunningLines, layoutText, pdfLines, type PdfLine } from './pdf-layout';
import type { FormatParser } from './types';

/**
 * After this many searchable scans in a row, the document is one: the rest of its pages are not looked
 * at for pictures (decoding a scan takes pdf.js a quarter of a second, and would find nothing to read).
 */
const SEARCHABLE_SCANS_IN_A_ROW = 3;

/**
 * PDF text with pdf.js (pdf-open.ts), laid out as pdf-layout.ts says (paragraphs apart, running headers
 * and footers dropped); asked to (`pdfPictures`), the pictures on its pages too (pdf-pictures.ts). It
 * runs in a parser thread (pool.ts); pages are read one at a time with a turn of the loop between them
 * all the same, so even run on a main thread a long PDF holds it one page at a time.
 */
export const parsePdf: FormatParser = async ({ data, pdfPictures }) => {
  // pdf.js takes the bytes over (it detaches a buffer they fill, and copies a part of a larger one):
  // the parse owns them here, so they are not copied once more.
  const bytes = data.byteLength;
  const pdf = await openPdf(data);
  try {
    const read: { lines: PdfLine[]; height: number }[] = [];
    const pictures: PdfPicture[] = [];
    const seen = new Set<string>();
    let scansInARow = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const [, bottom = 0, , top = 0] = page.view;
      const lines = pdfLines(content.items.flatMap((item) => ('str' in item ? [item] : [])));
      read.push({ lines: lines.map((l) => ({ ...l, y: l.y - bottom })), height: top - bottom });
      // A page without text is read whole by OCR: its pictures need not be found (nor decoded).
      const chars = lines.reduce((sum, line) => sum + line.text.trim().length, 0);
      if (pdfPictures && chars > 0 && scansInARow < SEARCHABLE_SCANS_IN_A_ROW) {
        const found = await picturesOnPage(page, n, seen);
        pictures.push(...found);
        scansInARow =
          pageKind(chars, pictureCovers(found).get(n) ?? 0) === 'searchable scan' ? scansInARow + 1 : 0;
      }
      page.cleanup();
      await yieldToLoop();
    }
    const pages = dropRunningLines(read).map(layoutText);
    let title: string | undefined;
    try {
      const { info } = await pdf.getMetadata();
      const value = (info as Record<string, unknown> | undefined)?.Title;
      if (typeof value === 'string' && value.trim()) title = value.trim();
    } catch {
      // Metadata is optional: a broken info dictionary does not make the text unreadable.
    }
    return {
      text: pages.join('\n\n'),
      pages,
      ...(pictures.length > 0 ? { pictures } : {}),
      metadata: { ...(title ? { title } : {}), pages: pdf.numPages, bytes },
    };
  } finally {
    await pdf.destroy();
  }
};
