import { asDocumentError, tooLarge, unreadable } from './errors';
import { detectType } from './detect';
import { parseDocx, parseOdt, parsePptx } from './office';
import { parsePdf } from './pdf';
import { readFileLimited, readLimited } from './read';
import { parseCsv, parseHtml, parseJson, parseMarkdown, parseTxt } from './text';
import {
  DEFAULT_LIMITS,
  type DocumentType,
  type FormatParser,
  type ParseLimits,
  type ParsedDocument,
} from './types';

export { DocumentError, type DocumentErrorCode } from './errors';
export { EXTENSIONS, detectType } from './detect';
export { readFileLimited, readLimited } from './read';
export { ZipArchive, type ZipEntry } from './zip';
export {
  DEFAULT_LIMITS,
  type DocumentMetadata,
  type DocumentSection,
  type DocumentType,
  type ParseLimits,
  type ParsedDocument,
} from './types';

const PARSERS: Record<DocumentType, FormatParser> = {
  pdf: parsePdf,
  docx: parseDocx,
  pptx: parsePptx,
  odt: parseOdt,
  markdown: parseMarkdown,
  csv: parseCsv,
  json: parseJson,
  html: parseHtml,
  txt: parseTxt,
};

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
};

/**
 * Parses a document to text. The type comes from the content when it is recognisable (PDF, ZIP-based
 * Office/ODF), else from the extension, else from the MIME type. Every failure is a `DocumentError`
 * (`{ status, code, detail }`: 413 document_too_large, 415 unsupported_document, 422 unreadable_document).
 */
export async function parseDocument(input: ParseDocumentInput): Promise<ParsedDocument> {
  const limits: ParseLimits = { ...DEFAULT_LIMITS, ...input.limits };
  try {
    let data: Uint8Array;
    if (input.path !== undefined) data = await readFileLimited(input.path, limits.maxBytes);
    else if (input.stream !== undefined) data = await readLimited(input.stream, limits.maxBytes);
    else {
      data = input.data;
      if (data.byteLength > limits.maxBytes)
        throw tooLarge(`document is larger than the limit of ${limits.maxBytes} bytes`);
    }
    if (data.byteLength === 0) throw unreadable('the document is empty');
    const type = await detectType(data, input.filename, input.mimeType, limits);
    const parsed = await PARSERS[type]({ data, filename: input.filename, limits });
    return { type, ...parsed };
  } catch (err) {
    throw asDocumentError(err, 'cannot parse the document');
  }
}
