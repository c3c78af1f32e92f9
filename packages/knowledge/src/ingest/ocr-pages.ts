import type { MeterScope, ModelTarget } from '@atelier/metering';
import { KNOWLEDGE_LIMITS } from '@atelier/schemas/constants';
import {
  renderPages,
  type DocumentPicture,
  type Drawings,
  type PageImage,
  type ParsedDocument,
} from '../parse/index';
import { pageKind, pictureCovers } from '../parse/pdf-pictures';
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

/**
 * What the OCR model is to read in a parsed document: pages read whole (a PDF's scans, `pageKind`: pages
 * without text or under a stamp; an image's page 1), and pictures (inside Office and OpenDocument files;
 * on a PDF's typed pages, not on a searchable scan's).
 */
export function toRead(parsed: ParsedDocument): { pages: number[]; pictures: DocumentPicture[] } {
  const all = parsed.pictures ?? [];
  if ((parsed.type !== 'pdf' && parsed.type !== 'image') || !parsed.pages)
    return { pages: [], pictures: all };
  const covers = pictureCovers(all);
  const kinds = parsed.pages.map((text, i) => pageKind(text.trim().length, covers.get(i + 1) ?? 0));
  return {
    pages: kinds.flatMap((kind, i) => (kind === 'scan' ? [i + 1] : [])),
    pictures: all.filter((p) => kinds[p.page! - 1] === 'typed'),
  };
}

/** Whether the collection's OCR model has anything to read in a document: scanned pages, an image, pictures. */
export function needsOcr(parsed: ParsedDocument): boolean {
  const { pages, pictures } = toRead(parsed);
  return pages.length > 0 || pictures.length > 0;
}

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

/** A few images to draw in one parser-thread task, and where what the model reads of each goes. */
interface Batch {
  drawings: Drawings;
  count: number;
  label: (n: number) => string;
  keep: (n: number, text: string) => void;
}

/** A list cut in lists of `PAGES_PER_DRAWING`, each with its offset. */
const batchesOf = <T>(list: readonly T[]) =>
  Array.from({ length: Math.ceil(list.length / PAGES_PER_DRAWING) }, (_, b) => ({
    offset: b * PAGES_PER_DRAWING,
    some: list.slice(b * PAGES_PER_DRAWING, (b + 1) * PAGES_PER_DRAWING),
  }));

/** How some of a document's pictures are drawn: cut out of a PDF's pages, read from an archive or a message. */
function picturesDrawn(parsed: ParsedDocument, some: readonly DocumentPicture[]): Drawings {
  if (parsed.type === 'pdf') {
    return { type: 'pdf', drawings: some.map((p) => ({ page: p.page!, box: p.box!, pixels: p.pixels! })) };
  }
  if (parsed.type === 'email') return { type: 'mail-pictures', pictures: some.map((p) => p.mail!) };
  return { type: 'pictures', parts: some.map((p) => p.part!) };
}

/** The drawing tasks for a document's pages read whole, then for its pictures. */
function batches(
  parsed: ParsedDocument,
  pages: number[],
  pictures: DocumentPicture[],
  filename: string,
  read: Set<number>,
) {
  const texts = parsed.pages ?? [];
  // What the model read replaces a page's text; when it read nothing, a stamp's text stays.
  const keepPage = (page: number, text: string) => {
    if (!text) return;
    texts[page - 1] = text;
    read.add(page);
  };
  const out: Batch[] = [];
  if (parsed.type === 'image' && pages.length > 0) {
    out.push({ drawings: { type: 'image' }, count: 1, label: () => filename, keep: keepPage });
  } else {
    for (const { some } of batchesOf(pages)) {
      out.push({
        drawings: { type: 'pdf', drawings: some.map((page) => ({ page })) },
        count: some.length,
        label: (page) => `page ${page} of ${filename}`,
        keep: keepPage,
      });
    }
  }
  for (const { offset, some } of batchesOf(pictures)) {
    out.push({
      drawings: picturesDrawn(parsed, some),
      count: some.length,
      label: (n) => `picture ${offset + n} of ${filename}`,
      keep: (n, text) => (some[n - 1]!.text = text),
    });
  }
  return out;
}

/**
 * Reads what has no text of its own with the collection's OCR model (`toRead`): a PDF's pages without
 * text, an image, the pictures inside a document or on a PDF's pages. Each is drawn as a JPEG in a parser
 * thread (a few at a time), then one metered OCR call is made per image not read before. The parsed
 * document is completed in place (a PDF's pages and text, `ocrPages` naming the pages read; each
 * picture's `text`). Answers how many pages and pictures gave text. A document with more pages to read
 * than `KNOWLEDGE_LIMITS.maxOcrPages` is refused before any call; of its pictures, that many are read at
 * most.
 */
export async function readByOcr(input: ScannedPagesInput): Promise<{ pages: number; pictures: number }> {
  const { parsed, signal } = input;
  const found = toRead(parsed);
  const pages = found.pages;
  const pictures = found.pictures.slice(0, KNOWLEDGE_LIMITS.maxOcrPages);
  if (pages.length === 0 && pictures.length === 0) return { pages: 0, pictures: 0 };
  if (pages.length > KNOWLEDGE_LIMITS.maxOcrPages) {
    throw new KnowledgeError(
      422,
      'too_many_scanned_pages',
      `The document has ${pages.length} scanned pages; OCR reads at most ${KNOWLEDGE_LIMITS.maxOcrPages} per document. Split it into smaller PDFs.`,
    );
  }
  const limits = { maxBytes: KNOWLEDGE_LIMITS.maxDocumentBytes };
  const total = pages.length + pictures.length;
  const drawn: string[] = [];
  let done = 0;
  const read = new Set<number>();
  for (const batch of batches(parsed, pages, pictures, input.filename, read)) {
    signal.throwIfAborted();
    const images = await renderPages({ ...input.source, ...batch.drawings, limits });
    await readImages(input, images, batch.label, batch.keep, drawn);
    done += batch.count;
    await input.onProgress(done, total);
  }
  await input.cache.keepOnly(drawn);
  if (pages.length > 0) {
    parsed.ocrPages = pages.filter((page) => read.has(page));
    parsed.text = (parsed.pages ?? []).filter((page) => page !== '').join('\n\n');
  }
  return { pages: parsed.ocrPages?.length ?? 0, pictures: pictures.filter((p) => p.text).length };
}
