/** Where a RAG collection's chunks live: Atelier's own database, an external PostgreSQL, or Qdrant. */
export const connectorKinds = ['builtin', 'pgvector', 'qdrant'] as const;
export type ConnectorKind = (typeof connectorKinds)[number];

export const vectorDistances = ['cosine', 'l2', 'inner_product'] as const;
export type VectorDistance = (typeof vectorDistances)[number];

/** How a collection's documents are cut into chunks (the three splitters of the flow editor). */
export const collectionSplitters = ['recursive', 'markdown', 'html'] as const;
export type CollectionSplitter = (typeof collectionSplitters)[number];

/**
 * The language a collection's full-text search (hybrid search's keywords) reads its chunks in: one of
 * PostgreSQL's text search configurations (stemming and stop words: "voyages" finds "voyage"), or
 * `simple` (any language: words as written, lower-cased).
 */
export const fullTextLanguages = [
  'simple',
  'arabic',
  'armenian',
  'basque',
  'catalan',
  'danish',
  'dutch',
  'english',
  'finnish',
  'french',
  'german',
  'greek',
  'hindi',
  'hungarian',
  'indonesian',
  'irish',
  'italian',
  'lithuanian',
  'nepali',
  'norwegian',
  'portuguese',
  'romanian',
  'russian',
  'serbian',
  'spanish',
  'swedish',
  'tamil',
  'turkish',
  'yiddish',
] as const;
export type FullTextLanguage = (typeof fullTextLanguages)[number];

/** A document's ingestion: queued, then processing (parse, split, embed, store), then ready or failed. */
export const documentStatuses = ['queued', 'processing', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof documentStatuses)[number];

/** The file types a collection ingests. */
export const documentTypes = [
  'pdf',
  'docx',
  // Word 97-2003 (an OLE compound file).
  'doc',
  'rtf',
  'pptx',
  // PowerPoint 97-2003 (an OLE compound file).
  'ppt',
  'odt',
  'xlsx',
  // Excel 97-2003 (an OLE compound file), or what web applications export under that name.
  'xls',
  'ods',
  'odp',
  'epub',
  'email',
  'markdown',
  'csv',
  'json',
  'html',
  'txt',
  // A photo or scan of a page, read by the collection's OCR model.
  'image',
] as const;
export type DocumentType = (typeof documentTypes)[number];

/** The file endings a collection ingests (lower case, with the dot) and the type each is read as. */
export const KNOWLEDGE_EXTENSIONS: Readonly<Record<string, DocumentType>> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.doc': 'doc',
  '.rtf': 'rtf',
  '.pptx': 'pptx',
  '.ppt': 'ppt',
  '.pps': 'ppt',
  '.odt': 'odt',
  '.xlsx': 'xlsx',
  '.xls': 'xls',
  '.ods': 'ods',
  '.odp': 'odp',
  '.epub': 'epub',
  '.eml': 'email',
  // An Outlook message (an OLE compound file), read as an email.
  '.msg': 'email',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdx': 'markdown',
  '.csv': 'csv',
  // Tab-separated values: the CSV reader finds the delimiter from the first line.
  '.tsv': 'csv',
  '.json': 'json',
  // JSON Lines: one value per line.
  '.jsonl': 'json',
  '.ndjson': 'json',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.txt': 'txt',
  // Plain-text markups and formats read as they are written.
  '.text': 'txt',
  '.rst': 'txt',
  '.adoc': 'txt',
  '.asciidoc': 'txt',
  '.org': 'txt',
  '.tex': 'txt',
  '.yaml': 'txt',
  '.yml': 'txt',
  '.log': 'txt',
  // Images (a photographed or scanned page, a screenshot): read by the collection's OCR model.
  '.png': 'image',
  '.jpg': 'image',
  '.jpeg': 'image',
  '.webp': 'image',
  '.gif': 'image',
};

/** Archives an upload takes as a folder: each file inside whose type is read becomes a document. */
export const ARCHIVE_EXTENSIONS: readonly string[] = ['.zip'];
export const ARCHIVE_MIME_TYPES: readonly string[] = ['application/zip', 'application/x-zip-compressed'];

/**
 * A folder's (or an archive's) files that are nobody's documents: hidden files and folders, macOS and
 * Windows bookkeeping. Left out of an uploaded folder or archive without a word.
 */
export function isFolderClutter(path: string): boolean {
  const segments = path.split('/');
  const own = segments.at(-1) ?? '';
  return (
    segments.some((s) => s.startsWith('.') || s === '__MACOSX') || /^(thumbs\.db|desktop\.ini)$/i.test(own)
  );
}

/** Formats refused by their file ending (Apple's, old word processors'): what they are and what to save them as. */
export const REFUSED_FORMATS: Readonly<Record<string, { name: string; saveAs: string }>> = {
  '.pages': { name: 'Apple Pages documents', saveAs: '.docx' },
  '.numbers': { name: 'Apple Numbers spreadsheets', saveAs: '.xlsx' },
  '.key': { name: 'Apple Keynote presentations', saveAs: '.pptx' },
  '.wpd': { name: 'WordPerfect documents', saveAs: '.docx' },
  '.wps': { name: 'Microsoft Works documents', saveAs: '.docx' },
};

/** Stored tool configurations nodes reference by `toolId`. */
export const toolTypes = ['figma', 'jira', 'notion', 'gitbook'] as const;
export type ToolType = (typeof toolTypes)[number];

export const KNOWLEDGE_LIMITS = {
  /** One uploaded file. */
  maxDocumentBytes: 100 * 1024 * 1024,
  /** Files in one upload request. */
  maxFilesPerUpload: 20,
  /** Documents one uploaded archive (.zip, taken as a folder) may give. */
  maxArchiveDocuments: 1000,
  /** Bytes one uploaded archive may expand to (its files together). */
  maxArchiveExpandedBytes: 1024 * 1024 * 1024,
  /** PDF pages without text (scans) one document may have read by OCR. */
  maxOcrPages: 500,
  /** Pixels of one image document (a 48-megapixel photo fits); larger ones are refused before decoding. */
  maxImagePixels: 50_000_000,
  /** Pages one sitemap adds to a collection. */
  maxWebPages: 500,
  maxTopK: 100,
  maxQueryChars: 4000,
  previewDefaultLimit: 10,
  previewMaxLimit: 100,
  /** Fields of one document's own metadata (`department`, `year`…), and the length of a field's name and text. */
  maxDocumentMetadataFields: 20,
  maxMetadataKeyChars: 64,
  maxMetadataValueChars: 500,
  /** Documents one request gives fields to at once. */
  maxBulkDocuments: 1000,
} as const;

/**
 * The metadata Atelier writes on every chunk of a document (its id, name, place, parse facts): a
 * document's own metadata fields cannot take these names (compared without case), so a filter on one
 * always means the same thing and editing a document's fields never touches them.
 */
export const RESERVED_METADATA_KEYS: readonly string[] = [
  'id',
  'content',
  'content_hash',
  'document_id',
  'filename',
  'chunk_index',
  'type',
  'title',
  'pages',
  'slides',
  'sheets',
  'chapters',
  'attachments',
  'rows',
  'page',
  'slide',
  'sheet',
  'chapter',
  'attachment',
  'ocr',
  'header 1',
  'header 2',
  'header 3',
];
