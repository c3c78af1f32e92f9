import { extname } from 'node:path';
import { KNOWLEDGE_EXTENSIONS, REFUSED_FORMATS } from '@atelier/schemas/constants';
import { unreadable, unsupported } from './errors';
import type { DocumentType, ParseLimits } from './types';
import { isOle, oleKind } from './ole';
import { elementsOf, parseXml } from './xml';
import { ZipArchive } from './zip';

/** The OpenDocument kinds read, by their media type. */
const ODF_TYPES: Readonly<Record<string, DocumentType>> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
};

const MIME_TYPES: Readonly<Record<string, DocumentType>> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/msword': 'doc',
  'application/rtf': 'rtf',
  'text/rtf': 'rtf',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.ms-outlook': 'email',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  ...ODF_TYPES,
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/epub+zip': 'epub',
  'message/rfc822': 'email',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/csv': 'csv',
  'text/tab-separated-values': 'csv',
  'application/json': 'json',
  'application/x-ndjson': 'json',
  'application/jsonl': 'json',
  'text/html': 'html',
  'text/plain': 'txt',
  'application/xhtml+xml': 'html',
  'application/yaml': 'txt',
  'text/yaml': 'txt',
  'text/x-rst': 'txt',
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
  'image/gif': 'image',
};

const BINARY_TYPES: ReadonlySet<DocumentType> = new Set([
  'pdf',
  'docx',
  'doc',
  'pptx',
  'ppt',
  'odt',
  'xlsx',
  'xls',
  'ods',
  'odp',
  'epub',
  'image',
]);

/** Other binary formats worth naming when one arrives under a wrong name. */
const OTHER_MAGIC: readonly [string, number[], string?][] = [
  ['TIFF image', [0x49, 0x49, 0x2a, 0x00], '; save it as PNG or JPEG'],
  ['TIFF image', [0x4d, 0x4d, 0x00, 0x2a], '; save it as PNG or JPEG'],
  ['gzip archive', [0x1f, 0x8b]],
  ['RAR archive', [0x52, 0x61, 0x72, 0x21]],
  ['7z archive', [0x37, 0x7a, 0xbc, 0xaf]],
];

/** What a binary type's content must be, when not a ZIP archive. */
const CONTAINER: Partial<Record<DocumentType, string>> = {
  pdf: 'a PDF',
  doc: 'an OLE compound file',
  ppt: 'an OLE compound file',
  xls: 'an OLE compound file',
};

/** Why a format is refused by its file ending, and what to save it as. */
const REFUSALS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(REFUSED_FORMATS).map(([ext, f]) => [
    ext,
    `${f.name} are not supported documents; save it as ${f.saveAs}`,
  ]),
);

/** RTF starts with `{\rtf` (Word also saves it under a .doc name). */
export const isRtf = (data: Uint8Array) =>
  /^\s*\{\\rtf/.test(Buffer.from(data.subarray(0, 64)).toString('latin1'));

const startsWith = (data: Uint8Array, bytes: number[]) => bytes.every((b, i) => data[i] === b);

/**
 * A PDF starts with `%PDF-`; readers (and pdf.js) accept a little junk before it, so when the name
 * says PDF the header may sit anywhere in the first KB (a text merely mentioning `%PDF-` stays text).
 */
const isPdf = (data: Uint8Array, claimedPdf: boolean) =>
  startsWith(data, [0x25, 0x50, 0x44, 0x46, 0x2d]) ||
  (claimedPdf && Buffer.from(data.subarray(0, 1024)).includes('%PDF-'));
/** The images read (parse/image.ts): PNG, JPEG, GIF, WebP (a RIFF file of kind WEBP). */
const isImage = (data: Uint8Array) =>
  startsWith(data, [0x89, 0x50, 0x4e, 0x47]) ||
  startsWith(data, [0xff, 0xd8, 0xff]) ||
  startsWith(data, [0x47, 0x49, 0x46, 0x38]) ||
  (startsWith(data, [0x52, 0x49, 0x46, 0x46]) &&
    Buffer.from(data.subarray(8, 12)).toString('latin1') === 'WEBP');
/** An ISO media file (`ftyp` box): HEIC or AVIF photos, MP4 or MOV videos. */
const isIsoMedia = (data: Uint8Array) => Buffer.from(data.subarray(4, 8)).toString('latin1') === 'ftyp';
const isZip = (data: Uint8Array) =>
  startsWith(data, [0x50, 0x4b, 0x03, 0x04]) || startsWith(data, [0x50, 0x4b, 0x05, 0x06]);

/** Which office format a ZIP holds, from its inner parts. */
async function zipKind(data: Uint8Array, limits: ParseLimits): Promise<DocumentType | undefined> {
  const zip = ZipArchive.open(data, limits);
  if (zip.has('word/document.xml')) return 'docx';
  if (zip.has('ppt/presentation.xml')) return 'pptx';
  if (zip.has('xl/workbook.xml')) return 'xlsx';
  // EPUB and ODF name their kind in `mimetype`; ODF else in the manifest's entry for the package root.
  let mediaType = zip.has('mimetype') ? (await zip.readText('mimetype'))?.trim() : undefined;
  if (mediaType === 'application/epub+zip') return 'epub';
  if (mediaType === undefined && zip.has('META-INF/container.xml')) return 'epub';
  if (mediaType === undefined && zip.has('content.xml')) {
    const manifest = await zip.readText('META-INF/manifest.xml');
    mediaType = manifest
      ? elementsOf(parseXml(manifest), 'manifest:file-entry').find((e) => e['manifest:full-path'] === '/')?.[
          'manifest:media-type'
        ]
      : undefined;
  }
  // A template (`…text-template`) is read as its document.
  const kind = mediaType && ODF_TYPES[mediaType.replace(/-template$/, '')];
  if (kind) return kind;
  // An ODF package that names no kind at all: read as text, as before kinds were told apart.
  if (mediaType === undefined && zip.has('content.xml') && zip.has('META-INF/manifest.xml')) return 'odt';
  return undefined;
}

/**
 * The document type: the content decides when it is recognisable (a PDF named `.txt` is read as a PDF,
 * a pptx named `.docx` as a pptx), else the extension, else the MIME type. Refuses other ZIPs and
 * binaries (415), and a PDF/Office name whose content is neither PDF nor ZIP (422).
 */
export async function detectType(
  data: Uint8Array,
  filename: string,
  mimeType: string | undefined,
  limits: ParseLimits,
): Promise<DocumentType> {
  const ext = extname(filename).toLowerCase();
  const mime = mimeType?.split(';')[0]?.trim().toLowerCase();
  const claimed = KNOWLEDGE_EXTENSIONS[ext] ?? (mime ? MIME_TYPES[mime] : undefined);

  if (isPdf(data, claimed === 'pdf')) return 'pdf';
  if (isImage(data)) return 'image';
  if (isZip(data)) {
    const kind = await zipKind(data, limits);
    if (kind) return kind;
    if (REFUSALS[ext]) throw unsupported(REFUSALS[ext]);
    if (claimed && BINARY_TYPES.has(claimed) && claimed !== 'pdf') {
      throw unreadable(`a ZIP archive without the parts of a ${claimed.toUpperCase()} document`);
    }
    throw unsupported('a ZIP archive that is not a DOCX, PPTX, XLSX, ODT, ODS, ODP or EPUB document');
  }
  // Word, Excel and PowerPoint 97-2003 files and Outlook messages.
  if (isOle(data)) return oleKind(data);
  if (isIsoMedia(data)) {
    throw unsupported('HEIC and AVIF photos and videos are not supported documents; save a photo as JPEG');
  }
  if (isRtf(data)) return 'rtf';
  if (claimed === 'rtf') throw unreadable('not a readable RTF document (it does not start with {\\rtf)');
  // What web applications export as .xls is often an HTML table or an Excel 2003 XML spreadsheet.
  if (claimed === 'xls' && !data.subarray(0, 8192).includes(0)) return 'xls';
  if (claimed === 'image') throw unreadable('not a readable image (PNG, JPEG, WebP and GIF are read)');
  if (claimed && BINARY_TYPES.has(claimed)) {
    throw unreadable(
      `not a readable ${claimed.toUpperCase()} (its content is not ${CONTAINER[claimed] ?? 'a ZIP archive'})`,
    );
  }
  const other = OTHER_MAGIC.find(([, magic]) => startsWith(data, magic));
  if (other) throw unsupported(`${other[0]}s are not supported documents${other[2] ?? ''}`);
  if (!claimed && REFUSALS[ext]) throw unsupported(REFUSALS[ext]);
  if (!claimed) {
    throw unsupported(
      `unsupported document type${ext ? ` "${ext}"` : ''}${mime ? ` (${mime})` : ''}; accepted: ${Object.keys(KNOWLEDGE_EXTENSIONS).join(' ')}`,
    );
  }
  if (
    data.subarray(0, 8192).includes(0) &&
    !(data[0] === 0xff && data[1] === 0xfe) &&
    !(data[0] === 0xfe && data[1] === 0xff)
  ) {
    throw unsupported(`binary content is not a ${claimed} document`);
  }
  return claimed;
}
