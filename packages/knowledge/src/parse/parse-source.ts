import { detectType } from './detect';
import { parseDoc } from './doc';
import { drawMailPictures, parseEmail } from './email';
import { parseEpub } from './epub';
import { tooLarge, unreadable, unsupported } from './errors';
import { drawImage, parseImage } from './image';
import { parseDocx, parsePptx } from './office';
import { parseOdp, parseOds, parseOdt } from './opendocument';
import { parsePdf } from './pdf';
import { parsePpt } from './ppt';
import { renderPdfPages, type PageImage, type PdfDrawing } from './pdf-render';
import { drawPictures } from './pictures';
import { readFileLimited } from './read';
import { parseRtf } from './rtf';
import { parseXlsx } from './spreadsheet';
import { parseCsv, parseHtml, parseJson, parseMarkdown, parseTxt } from './text';
import type { DocumentType, FormatParser, ParseLimits, ParsedDocument } from './types';
import { parseXls } from './xls';
import { ZipArchive } from './zip';

const PARSERS: Record<DocumentType, FormatParser> = {
  pdf: parsePdf,
  docx: parseDocx,
  doc: parseDoc,
  rtf: parseRtf,
  pptx: parsePptx,
  ppt: parsePpt,
  odt: parseOdt,
  ods: parseOds,
  odp: parseOdp,
  epub: parseEpub,
  email: parseEmail,
  xlsx: parseXlsx,
  xls: parseXls,
  markdown: parseMarkdown,
  csv: parseCsv,
  json: parseJson,
  html: parseHtml,
  txt: parseTxt,
  image: parseImage,
};

/** What a parser thread is handed (structured-cloned): a file to read or bytes, the type hints, the limits. */
export type ParseTask = ({ path: string; data?: never } | { data: Uint8Array; path?: never }) & {
  filename: string;
  mimeType?: string | undefined;
  limits: ParseLimits;
  /** Find the pictures on a PDF's pages too (for the OCR model). */
  pdfPictures?: boolean | undefined;
};

/**
 * What to draw as JPEGs for an OCR model: a PDF's pages or pictures on them (each answered with the
 * number pdf-render.ts says), an image document (its page 1), pictures inside an Office or OpenDocument
 * file (its archive's parts) or an email (their numbers, `mailPictures`), answered numbered from 1.
 */
export type Drawings =
  | { type: 'pdf'; drawings: PdfDrawing[] }
  | { type: 'image' }
  | { type: 'pictures'; parts: string[] }
  | { type: 'mail-pictures'; pictures: number[] };

/** What a parser thread is handed to draw: a file to read or bytes, the limits, what to draw. */
export type RenderTask = ({ path: string; data?: never } | { data: Uint8Array; path?: never }) & {
  limits: ParseLimits;
} & Drawings;

/** The task's bytes: a file read within the size limit, or the bytes given, checked against it. */
async function taskBytes(task: ParseTask | RenderTask): Promise<Uint8Array> {
  const { limits } = task;
  if (task.path !== undefined) return readFileLimited(task.path, limits.maxBytes);
  if (task.data.byteLength > limits.maxBytes)
    throw tooLarge(`document is larger than the limit of ${limits.maxBytes} bytes`);
  return task.data;
}

/**
 * Reads (a file, within the size limit), detects the type and parses: the work of a parser thread.
 * Throws `DocumentError`s, and whatever a format library throws.
 */
export async function parseSource(task: ParseTask): Promise<ParsedDocument> {
  const data = await taskBytes(task);
  return parseData(data, task.filename, task.mimeType, task.limits, 0, task.pdfPictures === true);
}

/** Draws a PDF's pages, an image or a document's pictures as JPEG images (for OCR): the other work of a parser thread. */
export async function renderSource(task: RenderTask): Promise<PageImage[]> {
  const data = await taskBytes(task);
  if (task.type === 'pictures') return drawPictures(ZipArchive.open(data, task.limits), task.parts);
  if (task.type === 'mail-pictures') return drawMailPictures(data, task.pictures);
  return task.type === 'image' ? [await drawImage(data)] : renderPdfPages(data, task.drawings);
}

/** Files inside files (an email's attachments) are read one level deep: an attached email's own are named only. */
const MAX_NESTING = 1;

async function parseData(
  data: Uint8Array,
  filename: string,
  mimeType: string | undefined,
  limits: ParseLimits,
  depth: number,
  pdfPictures = false,
): Promise<ParsedDocument> {
  if (data.byteLength === 0) throw unreadable('the document is empty');
  const type = await detectType(data, filename, mimeType, limits);
  // An image inside a document (an email's attached photo) is only named: OCR reads uploaded images.
  if (depth > 0 && type === 'image') throw unsupported('an image inside a document is not read');
  const parseInner =
    depth < MAX_NESTING
      ? (inner: Uint8Array, name: string, mime: string) => parseData(inner, name, mime, limits, depth + 1)
      : undefined;
  const parsed = await PARSERS[type]({
    data,
    filename,
    limits,
    ...(pdfPictures ? { pdfPictures } : {}),
    ...(parseInner ? { parseInner } : {}),
  });
  return { type, ...parsed };
}
