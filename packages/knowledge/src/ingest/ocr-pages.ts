import type { MeterScope, ModelTarget } from '@atelier/metering';
import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { renderPages, type ParsedDocument } from '../parse/index';
import { mapLimited, type ModelCalls } from '../service/models';
import { KnowledgeError } from '../stores/vector-store';
import { imageHash, type OcrCache } from './ocr-cache';

/** Pages drawn per parser-thread task (each image is a few hundred KB). */
const PAGES_PER_DRAWING = 4;
/** OCR calls in flight at once for one document. */
const OCR_CONCURRENCY = 2;

export interface ScannedPagesInput {
  calls: ModelCalls;
  scope: MeterScope;
  /** The collection's OCR model. */
  model: ModelTarget;
  filename: string;
  parsed: ParsedDocument;
  /** The PDF or image: the upload on disk, or a fetched page's bytes. */
  source: { path: string } | { data: Uint8Array };
  signal: AbortSignal;
  /** What the model read of this document's pages before: those are not sent again. */
  cache: OcrCache;
  /** Pages read so far, of how many. */
  onProgress: (done: number, total: number) => Promise<void>;
}

/** The 1-based numbers of a parsed PDF's pages without text (scans, or pages of images); an image's page 1. */
export function pagesWithoutText(parsed: ParsedDocument): number[] {
  if ((parsed.type !== 'pdf' && parsed.type !== 'image') || !parsed.pages) return [];
  return parsed.pages.flatMap((text, i) => (text.trim() === '' ? [i + 1] : []));
}

/**
 * Reads a PDF's pages without text, or an image, with the collection's OCR model: each drawn as a JPEG in
 * a parser thread (a few at a time), then one metered OCR call per page. The parsed document is completed in
 * place (its pages and text; `ocrPages` names the pages read). Answers how many pages were read. A
 * document with more such pages than `KNOWLEDGE_LIMITS.maxOcrPages` is refused before any call.
 */
export async function readScannedPages(input: ScannedPagesInput): Promise<number> {
  const { parsed, signal } = input;
  const blank = pagesWithoutText(parsed);
  if (blank.length === 0) return 0;
  if (blank.length > KNOWLEDGE_LIMITS.maxOcrPages) {
    throw new KnowledgeError(
      422,
      'too_many_scanned_pages',
      `The document has ${blank.length} pages without text; OCR reads at most ${KNOWLEDGE_LIMITS.maxOcrPages} per document. Split it into smaller PDFs.`,
    );
  }
  const pages = parsed.pages!;
  const drawn: string[] = [];
  let done = 0;
  for (let i = 0; i < blank.length; i += PAGES_PER_DRAWING) {
    signal.throwIfAborted();
    const images = await renderPages({
      ...input.source,
      type: parsed.type === 'image' ? 'image' : 'pdf',
      pages: blank.slice(i, i + PAGES_PER_DRAWING),
      limits: { maxBytes: KNOWLEDGE_LIMITS.maxDocumentBytes },
    });
    await mapLimited(images, OCR_CONCURRENCY, async ({ page, image }) => {
      const hash = imageHash(image);
      drawn.push(hash);
      let text = input.cache.get(hash);
      if (text === undefined) {
        const dataUrl = `data:image/jpeg;base64,${Buffer.from(image).toString('base64')}`;
        const answer = await input.calls.readImage(
          input.scope,
          input.model,
          dataUrl,
          parsed.type === 'image' ? input.filename : `page ${page} of ${input.filename}`,
          signal,
        );
        text = answer.replace(/\r\n?/g, '\n').trim();
        await input.cache.put(hash, text);
      }
      pages[page - 1] = text;
    });
    done += images.length;
    await input.onProgress(done, blank.length);
  }
  await input.cache.keepOnly(drawn);
  parsed.ocrPages = blank.filter((page) => pages[page - 1] !== '');
  parsed.text = pages.filter((page) => page !== '').join('\n\n');
  return parsed.ocrPages.length;
}
