import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { getDocumentProxy } from 'unpdf';
import { unreadable } from './errors';
import { dropRunningLines, layoutText, pdfLines, type PdfLine } from './pdf-layout';
import type { FormatParser } from './types';

/**
 * PDF text with pdf.js (the serverless build shipped inside `unpdf`: no worker file, no canvas, no
 * downloads), laid out as pdf-layout.ts says (paragraphs apart, running headers and footers dropped).
 * It runs in a parser thread (pool.ts); pages are read one at a time with a turn of the loop between
 * them all the same, so even run on a main thread a long PDF holds it one page at a time.
 */
export const parsePdf: FormatParser = async ({ data }) => {
  // pdf.js takes the bytes over (it detaches a buffer they fill, and copies a part of a larger one):
  // the parse owns them here, so they are not copied once more (pdf.js wants a plain Uint8Array view).
  const bytes = data.byteLength;
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), {
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: 0,
    });
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    if (name === 'PasswordException') throw unreadable('encrypted PDF (password required)', err);
    throw unreadable(`not a readable PDF (${err instanceof Error ? err.message : String(err)})`, err);
  }
  try {
    const read: { lines: PdfLine[]; height: number }[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const [, bottom = 0, , top = 0] = page.view;
      const lines = pdfLines(content.items.flatMap((item) => ('str' in item ? [item] : [])));
      read.push({ lines: lines.map((l) => ({ ...l, y: l.y - bottom })), height: top - bottom });
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
      metadata: { ...(title ? { title } : {}), pages: pdf.numPages, bytes },
    };
  } finally {
    await pdf.destroy();
  }
};
