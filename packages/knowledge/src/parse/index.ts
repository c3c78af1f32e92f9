import { asDocumentError, tooLarge } from './errors';
import { sharedParsePool } from './pool';
import { readLimited } from './read';
import type { Drawings } from './parse-source';

export type { Drawings } from './parse-source';
import type { PageImage } from './pdf-render';
import { DEFAULT_LIMITS, type ParseLimits, type ParsedDocument } from './types';

export { DocumentError, type DocumentErrorCode } from './errors';
export { detectType } from './detect';
export { readFileLimited, readLimited } from './read';
export { PAGE_IMAGE_LONG_SIDE, type PageImage, type PdfDrawing } from './pdf-render';
export { ZipArchive, type ZipEntry } from './zip';
export {
  closeParsePool,
  configureParsePool,
  createParsePool,
  defaultParseThreads,
  type ParsePool,
  type ParsePoolOptions,
} from './pool';
export {
  DEFAULT_LIMITS,
  type DocumentMetadata,
  type DocumentPicture,
  type DocumentSection,
  type DocumentType,
  type PageBox,
  type ParseLimits,
  type ParsedDocument,
} from './types';

export type DocumentSource =
  /** A file on disk (an upload already streamed there). */
  | { path: string; stream?: never; data?: never }
  /** A stream (a Node Readable or any async iterable of bytes), read up to the size limit only. */
  | { stream: AsyncIterable<Uint8Array | string>; path?: never; data?: never }
  /** Bytes already in memory. */
  | { data: Uint8Array; path?: never; stream?: never };

export type ParseDocumentInput = DocumentSource & {
  /** The original file name: its extension is the first hint of the type. */
  filename: string;
  mimeType?: string;
  limits?: Partial<ParseLimits>;
  /** Find the pictures on a PDF's pages too: it decodes them, so asked for when an OCR model will read them. */
  pdfPictures?: boolean;
};

/**
 * Parses a document to text. The type comes from the content when it is recognisable (PDF, ZIP-based
 * Office/ODF), else from the extension, else from the MIME type. Every failure is a `DocumentError`
 * (`{ status, code, detail }`: 413 document_too_large, 415 unsupported_document, 422 unreadable_document,
 * 422 document_parse_timeout).
 *
 * The work is done in a parser thread (pool.ts), so the event loop stays free: a file on disk is read
 * there; a stream is read here (within the size limit) and its bytes moved to the thread; bytes already
 * in memory are copied to it.
 */
export async function parseDocument(input: ParseDocumentInput): Promise<ParsedDocument> {
  const limits: ParseLimits = { ...DEFAULT_LIMITS, ...input.limits };
  const hints = {
    filename: input.filename,
    mimeType: input.mimeType,
    limits,
    pdfPictures: input.pdfPictures,
  };
  try {
    if (input.path !== undefined) return await sharedParsePool().parse({ path: input.path, ...hints });
    if (input.stream !== undefined) {
      const data = await readLimited(input.stream, limits.maxBytes);
      return await sharedParsePool().parse({ data, ...hints }, ownBuffer(data));
    }
    if (input.data.byteLength > limits.maxBytes)
      throw tooLarge(`document is larger than the limit of ${limits.maxBytes} bytes`);
    return await sharedParsePool().parse({ data: wholeView(input.data), ...hints });
  } catch (err) {
    throw asDocumentError(err, 'cannot parse the document');
  }
}

/** The buffer of bytes this module read itself, when they fill it (small reads share Node's pool). */
const ownBuffer = (data: Uint8Array): ArrayBuffer[] =>
  data.buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength
    ? [data.buffer]
    : [];

/** A view over part of a larger buffer is cloned with all of that buffer: copy just the part then. */
const wholeView = (data: Uint8Array): Uint8Array =>
  data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : new Uint8Array(data);

/**
 * Draws what an OCR model is to read as JPEG images in a parser thread: a PDF's pages (1-based; others
 * are skipped) or pictures on them, an image document (its page 1), or a document's pictures (its
 * archive's parts, numbered from 1 in the order given; one that cannot be decoded is left out). Scanned
 * pages and pictures have no text for `parseDocument` to find. Fails as a parse does.
 */
export async function renderPages(
  input: ({ path: string; data?: never } | { data: Uint8Array; path?: never }) & {
    limits?: Partial<ParseLimits>;
  } & Drawings,
): Promise<PageImage[]> {
  const { path, data, limits: given, ...what } = input;
  const limits: ParseLimits = { ...DEFAULT_LIMITS, ...given };
  const source = path !== undefined ? { path } : { data: wholeView(data) };
  try {
    return await sharedParsePool().render({ ...source, ...what, limits });
  } catch (err) {
    throw asDocumentError(err, 'cannot draw the pages');
  }
}
