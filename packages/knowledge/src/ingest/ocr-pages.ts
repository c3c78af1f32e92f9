import type { MeterScope, ModelTarget } from '@atelier/metering';
import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import { renderPages, type PageImage, type ParsedDocument } from '../parse/index';
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
  /** The document: the upload on disk, or a fetched page's bytes. */
  source: { path: string } | { data: Uint8Array };
  signal: AbortSignal;
  /** What the model read of this document's pages and pictures before: those are not sent again. */
  cache: OcrCache;
  /** Pages and pictures read so far, of how many. */
  onProgress: (done: number, total: number) => Promise<void>;
}

/** The 1-based numbers of a parsed PDF's pages without text (scans, or pages of images); an image's page 1. */
export function pagesWithoutText(parsed: ParsedDocument): number[] {
  if ((parsed.type !== 'pdf' && parsed.type !== 'image') || !parsed.pages) return [];
  return parsed.pages.flatMap((text, i) => (text.trim() === '' ? [i + 1] : []));
}

/** Whether the collection's OCR model has anything to read in a document: scanned pages, an image, pictures. */
export const needsOcr = (parsed: ParsedDocument) =>
  pagesWithoutText(parsed).length > 0 || (parsed.pictures?.length ?? 0) > 0;

/** Reads drawn images with the OCR model (a few at a time), each once: what was read before comes from the cache. */
async function readImages(
  input: ScannedPagesInput,
  images: PageImage[],
  label: (n: number) => string,
  keep: (n: number, text: string) => void,
  drawn: string[],
): Promise<void> {
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
        label(page),
        input.signal,
      );
      text = answer.replace(/\r\n?/g, '\n').trim();
      await input.cache.put(hash, text);
    }
    keep(page, text);
  });
}

/**
 * Reads what has no text of its own with the collection's OCR model: a PDF's pages without text, an
 * image, the pictures inside a document. Each is drawn as a JPEG in a parser thread (a few at a time),
 * then one metered OCR call is made per image not read before. The parsed document is completed in
 * place (a PDF's pages and text, `ocrPages` naming the pages read; each picture's `text`). Answers how
 * many pages and pictures gave text. A document with more pages without text than
 * `KNOWLEDGE_LIMITS.maxOcrPages` is refused before any call; of its pictures, that many are read at most.
 */
export async function readByOcr(input: ScannedPagesInput): Promise<number> {
  const { parsed, signal } = input;
  const blank = pagesWithoutText(parsed);
  const pictures = (parsed.pictures ?? []).slice(0, KNOWLEDGE_LIMITS.maxOcrPages);
  if (blank.length === 0 && pictures.length === 0) return 0;
  if (blank.length > KNOWLEDGE_LIMITS.maxOcrPages) {
    throw new KnowledgeError(
      422,
      'too_many_scanned_pages',
      `The document has ${blank.length} pages without text; OCR reads at most ${KNOWLEDGE_LIMITS.maxOcrPages} per document. Split it into smaller PDFs.`,
    );
  }
  const limits = { maxBytes: KNOWLEDGE_LIMITS.maxDocumentBytes };
  const total = blank.length + pictures.length;
  const drawn: string[] = [];
  let done = 0;
  const pages = parsed.pages ?? [];
  for (let i = 0; i < blank.length; i += PAGES_PER_DRAWING) {
    signal.throwIfAborted();
    const type = parsed.type === 'image' ? 'image' : 'pdf';
    const images = await renderPages({
      ...input.source,
      type,
      pages: blank.slice(i, i + PAGES_PER_DRAWING),
      limits,
    });
    const label = (page: number) => (type === 'image' ? input.filename : `page ${page} of ${input.filename}`);
    await readImages(input, images, label, (page, text) => (pages[page - 1] = text), drawn);
    done += images.length;
    await input.onProgress(done, total);
  }
  for (let i = 0; i < pictures.length; i += PAGES_PER_DRAWING) {
    signal.throwIfAborted();
    const some = pictures.slice(i, i + PAGES_PER_DRAWING);
    const images = await renderPages({
      ...input.source,
      type: 'pictures',
      parts: some.map((p) => p.part),
      limits,
    });
    const label = (n: number) => `picture ${i + n} of ${input.filename}`;
    await readImages(input, images, label, (n, text) => (some[n - 1]!.text = text), drawn);
    done += some.length;
    await input.onProgress(done, total);
  }
  await input.cache.keepOnly(drawn);
  if (blank.length > 0) {
    parsed.ocrPages = blank.filter((page) => pages[page - 1] !== '');
    parsed.text = pages.filter((page) => page !== '').join('\n\n');
  }
  return (parsed.ocrPages?.length ?? 0) + pictures.filter((p) => p.text).length;
}
