import { htmlSplit, markdownSplit, recursiveSplit } from '@atelier/engine';
import type { ParsedDocument } from '../parse/index';
import type { Metadata } from '../stores/vector-store';

/** A piece of a document before embedding: its text and what it adds to the document's metadata. */
export interface DocumentChunk {
  content: string;
  metadata: Metadata;
}

export interface ChunkOptions {
  splitter: 'recursive' | 'markdown' | 'html';
  chunkSize: number;
  chunkOverlap: number;
}

const SEPARATORS = ['\n\n', '\n', ' ', ''];
const MARKDOWN_HEADERS = [
  ['#', 'Header 1'],
  ['##', 'Header 2'],
  ['###', 'Header 3'],
] as const;
const HTML_HEADERS = [
  ['h1', 'Header 1'],
  ['h2', 'Header 2'],
  ['h3', 'Header 3'],
] as const;

/** The engine's recursive splitter with the collection's size; the overlap is kept below the size. */
function bySize(text: string, options: ChunkOptions): string[] {
  const chunkSize = Math.max(1, options.chunkSize);
  const chunkOverlap = Math.max(0, Math.min(options.chunkOverlap, Math.floor(chunkSize / 2)));
  return recursiveSplit(text, {
    chunkSize,
    chunkOverlap,
    separators: SEPARATORS,
    isSeparatorRegex: false,
    length: (s) => s.length,
  })
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Sections (with their headers as metadata) cut again to the collection's chunk size. */
function sectionsBySize(
  sections: { content: string; metadata: Record<string, string> }[],
  options: ChunkOptions,
) {
  return sections.flatMap((section) =>
    bySize(section.content, options).map((content) => ({ content, metadata: { ...section.metadata } })),
  );
}

/** Text cut by size is split in segments of about this many characters, with a turn of the event loop between. */
const SEGMENT_CHARS = 256 * 1024;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Cuts a long text at paragraph (else line, else word) boundaries into pieces of about `size` characters. */
export function segments(text: string, size = SEGMENT_CHARS): string[] {
  const out: string[] = [];
  let at = 0;
  while (text.length - at > size) {
    const window = text.slice(at, at + size);
    let cut = -1;
    for (const separator of ['\n\n', '\n', ' ']) {
      cut = window.lastIndexOf(separator);
      if (cut > size / 2) break;
    }
    const end = cut > size / 2 ? at + cut : at + size;
    out.push(text.slice(at, end));
    at = end;
  }
  out.push(text.slice(at));
  return out;
}

/** Texts split by size, one segment at a time, yielding to other work (HTTP requests) in between. */
async function bySizeYielding(
  parts: { text: string; metadata: Metadata }[],
  options: ChunkOptions,
): Promise<DocumentChunk[]> {
  const chunks: DocumentChunk[] = [];
  for (const part of parts) {
    for (const segment of segments(part.text)) {
      for (const content of bySize(segment, options))
        chunks.push({ content, metadata: { ...part.metadata } });
      await nextTurn();
    }
  }
  return chunks;
}

const part = (text: string, metadata: Metadata) => ({ text, metadata });

/** The pictures the OCR model read (on this slide, PDF page or sheet, when given), as parts marked `ocr`. */
const picturesRead = (parsed: ParsedDocument, on: { slide?: number; page?: number; sheet?: string } = {}) =>
  (parsed.pictures ?? [])
    .filter(
      (p) =>
        p.text &&
        (on.slide === undefined || p.slide === on.slide) &&
        (on.page === undefined || p.page === on.page) &&
        (on.sheet === undefined || p.sheet === on.sheet),
    )
    .map((p) => part(p.text!, { ...on, ocr: true }));

/**
 * Cuts a parsed document with its collection's splitter (the engine's three splitters): recursive by
 * size (PDF pages apart, each chunk knowing its `page`, and `ocr` when an OCR model read it, as an image's do,
 * a page's pictures read by OCR after it; XLSX and ODS sheets apart, each knowing its
 * `sheet`; PPTX and ODP slides apart, each knowing its `slide`, a slide's pictures read by OCR after it; EPUB chapters apart, each knowing its
 * `chapter` title; an email's message and attachments apart, an attachment's knowing its `attachment`);
 * markdown at headings (the headings above a chunk in its metadata) for markdown documents; html at
 * h1–h3 for HTML documents (`html` is the raw page). Sections longer than the chunk size are cut again
 * by size. Other types use the recursive one, the pictures read by OCR after the text, marked `ocr`.
 */
export async function chunkDocument(
  parsed: ParsedDocument,
  options: ChunkOptions,
  html?: string,
): Promise<DocumentChunk[]> {
  if (options.splitter === 'markdown' && parsed.type === 'markdown') {
    const sections = markdownSplit(parsed.text, {
      headers: MARKDOWN_HEADERS,
      returnEachLine: false,
      stripHeaders: false,
    });
    return sectionsBySize(sections, options);
  }
  if (options.splitter === 'html' && parsed.type === 'html' && html !== undefined) {
    return sectionsBySize(htmlSplit(html, { headers: HTML_HEADERS, returnEachElement: false }), options);
  }
  if (parsed.type === 'pdf' && parsed.pages && parsed.pages.length > 0) {
    // Each page, then its pictures the OCR model read.
    const read = new Set(parsed.ocrPages);
    return bySizeYielding(
      parsed.pages.flatMap((text, index) => [
        part(text, read.has(index + 1) ? { page: index + 1, ocr: true } : { page: index + 1 }),
        ...picturesRead(parsed, { page: index + 1 }),
      ]),
      options,
    );
  }
  if (parsed.type === 'image') {
    return bySizeYielding([part(parsed.text, parsed.ocrPages?.length ? { ocr: true } : {})], options);
  }
  if (parsed.sheets && parsed.sheets.length > 0) {
    // Each sheet's rows, then the pictures it shows the OCR model read; those of a sheet without
    // rows (a sheet of screenshots) last.
    const listed = new Set(parsed.sheets.map((sheet) => sheet.name));
    const elsewhere = (parsed.pictures ?? []).filter((p) => p.text && p.sheet && !listed.has(p.sheet));
    return bySizeYielding(
      [
        ...parsed.sheets.flatMap((sheet) => [
          part(sheet.text, { sheet: sheet.name }),
          ...picturesRead(parsed, { sheet: sheet.name }),
        ]),
        ...elsewhere.map((p) => part(p.text!, { sheet: p.sheet!, ocr: true })),
      ],
      options,
    );
  }
  if ((parsed.type === 'pptx' || parsed.type === 'odp') && parsed.sections && parsed.sections.length > 0) {
    // A presentation's sections are its slides, in order (an empty slide makes no chunk), each followed
    // by its pictures the OCR model read.
    return bySizeYielding(
      parsed.sections.flatMap((section, index) => [
        part(section.text, { slide: index + 1 }),
        ...picturesRead(parsed, { slide: index + 1 }),
      ]),
      options,
    );
  }
  if (parsed.type === 'epub' && parsed.sections && parsed.sections.length > 0) {
    // A book's sections are its chapters: chunks stay within one and know its title.
    return bySizeYielding(
      parsed.sections.map((s) => part(s.text, s.title ? { chapter: s.title } : {})),
      options,
    );
  }
  if (parsed.type === 'email' && parsed.sections && parsed.sections.length > 0) {
    // The message, the pictures it shows, then each attachment read, attached pictures by OCR last: an
    // attachment's chunks know its file name.
    const [message, ...attachments] = parsed.sections;
    const pictures = (parsed.pictures ?? []).filter((p) => p.text);
    return bySizeYielding(
      [
        part(message!.text, {}),
        ...pictures.filter((p) => !p.attachment).map((p) => part(p.text!, { ocr: true })),
        ...attachments.map((s) => part(s.text, s.title ? { attachment: s.title } : {})),
        ...pictures
          .filter((p) => p.attachment)
          .map((p) => part(p.text!, { attachment: p.attachment!, ocr: true })),
      ],
      options,
    );
  }
  // The text, then the pictures the OCR model read (a Word or OpenDocument text's).
  return bySizeYielding([part(parsed.text, {}), ...picturesRead(parsed)], options);
}

/** The document-level metadata every chunk of a document carries (besides its id, name and index). */
export function documentMetadata(parsed: ParsedDocument): Metadata {
  const m = parsed.metadata;
  const out: Metadata = { type: parsed.type };
  if (m.title) out.title = m.title;
  if (m.pages !== undefined) out.pages = m.pages;
  if (m.slides !== undefined) out.slides = m.slides;
  if (m.sheets !== undefined) out.sheets = m.sheets;
  if (m.chapters !== undefined) out.chapters = m.chapters;
  if (m.attachments !== undefined) out.attachments = m.attachments;
  if (m.rows !== undefined) out.rows = m.rows;
  return out;
}
