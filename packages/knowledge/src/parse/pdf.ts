import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { getDocumentProxy } from 'unpdf';
import { unreadable } from './errors';
import type { FormatParser } from './types';

/**
 * PDF text with pdf.js (the serverless build shipped inside `unpdf`: no worker file, no canvas, no
 * downloads). pdf.js runs on this thread here, so pages are read one at a time with a turn of the
 * event loop between them: a long PDF never holds the loop for more than one page.
 */
export const parsePdf: FormatParser = async ({ data }) => {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(data), {
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
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : '');
      }
      pages.push(text.replace(/[ \t]+\n/g, '\n').trim());
      page.cleanup();
      await yieldToLoop();
    }
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
      metadata: { ...(title ? { title } : {}), pages: pdf.numPages, bytes: data.byteLength },
    };
  } finally {
    await pdf.destroy();
  }
};
