import type { DocumentType } from '@atelier/schemas/constants';

/** The document types: the shared list (`documentTypes`), which also names their file endings. */
export type { DocumentType };

export interface ParseLimits {
  /** Largest document accepted, in bytes, checked while reading. Default 50 MB. */
  maxBytes: number;
  /** Archives (docx, pptx, xlsx, odt, ods, odp): most bytes all entries may expand to, counted while inflating. Default 200 MB. */
  maxUncompressedBytes: number;
  /** Archives: most entries accepted. Default 10 000. */
  maxEntries: number;
  /**
   * Longest a parse may run once a parser thread took it (reading the file included), in ms; past it the
   * thread is stopped and the document fails with 422 document_parse_timeout. Default 3 minutes.
   */
  timeoutMs: number;
}

export const DEFAULT_LIMITS: ParseLimits = {
  maxBytes: 50 * 1024 * 1024,
  maxUncompressedBytes: 200 * 1024 * 1024,
  maxEntries: 10_000,
  timeoutMs: 180_000,
};

export interface DocumentSection {
  /** A heading, slide title or label, when the format has one. */
  title?: string;
  text: string;
}

export interface DocumentMetadata {
  title?: string;
  /** PDF pages. */
  pages?: number;
  /** CSV, XLSX and ODS data rows (header rows not counted); JSON Lines records. */
  rows?: number;
  /** CSV column names. */
  columns?: string[];
  /** XLSX and ODS sheets that hold data. */
  sheets?: number;
  /** PPTX and ODP slides. */
  slides?: number;
  /** EPUB chapters that hold text. */
  chapters?: number;
  /** An email's attachments (inline images not counted), read or only named. */
  attachments?: number;
  /** DOCX/ODT paragraphs (headings included). */
  paragraphs?: number;
  /** Images: the picture's size in pixels, as shown (EXIF orientation applied). */
  width?: number;
  height?: number;
  /** Size of the document as read, in bytes. */
  bytes: number;
  /** Parser warnings worth keeping (e.g. unsupported DOCX features), at most a few. */
  warnings?: string[];
}

/** Where a picture is shown on a PDF page: fractions of the page as shown (rotation applied), from its top left. */
export interface PageBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A picture inside a document (a scan pasted into Word, a screenshot on a slide, on a PDF page or in an
 * email), for the OCR model: a part of an Office or OpenDocument archive, a place on a PDF page, or one
 * of a message's pictures.
 */
export type DocumentPicture = {
  /** What the OCR model read (set by ingestion, not by parsing). */
  text?: string;
} & (
  | {
      /** Its part in the document's archive (`word/media/image1.png`). */
      part: string;
      /** PPTX and ODP: the slide (1-based) it is on first. */
      slide?: number;
      /** XLSX: the sheet it is on first. */
      sheet?: string;
      page?: never;
      box?: never;
      pixels?: never;
      mail?: never;
      attachment?: never;
    }
  | {
      /** An email: its number among the message's pictures (`mailPictures`: shown in the body, then attached). */
      mail: number;
      /** An attached picture's file name (one the body shows has none). */
      attachment?: string;
      part?: never;
      slide?: never;
      sheet?: never;
      page?: never;
      box?: never;
      pixels?: never;
    }
  | {
      /** PDF: the page (1-based) it is shown on. */
      page: number;
      box: PageBox;
      /** Its own size in pixels (a screenshot's, a scan's). */
      pixels: { width: number; height: number };
      part?: never;
      slide?: never;
      sheet?: never;
      mail?: never;
      attachment?: never;
    }
);

export interface ParsedDocument {
  type: DocumentType;
  /** The whole document as plain text (markdown keeps its markup). */
  text: string;
  /** PDF: the text of each page, in order. An image: its one page, empty until an OCR model reads it. */
  pages?: string[];
  /** PDF or image: the pages (1-based) whose text an OCR model read (set by ingestion, not by parsing). */
  ocrPages?: number[];
  /**
   * DOCX, PPTX, XLSX, ODT, ODP and emails (and a PDF's, when parsing was asked to find them): the pictures
   * worth reading (neither icons nor drawings), in document order; the collection's OCR model reads them.
   */
  pictures?: DocumentPicture[];
  /** XLSX and ODS: the text of each sheet that holds data, in workbook order. */
  sheets?: { name: string; text: string }[];
  /**
   * Slides (pptx, odp), chapters (epub), paragraphs (docx, odt), markdown sections, CSV, XLSX and ODS
   * rows; an email's message, then each attachment read (titled by its file name).
   */
  sections?: DocumentSection[];
  metadata: DocumentMetadata;
}

/** What a format parser gets: the document bytes (already size-checked) and the limits. */
export interface ParseContext {
  data: Uint8Array;
  filename: string;
  limits: ParseLimits;
  /** Find the pictures on a PDF's pages too (it decodes them: asked for when an OCR model will read them). */
  pdfPictures?: boolean;
  /** Parses a file found inside this one (an email's attachment); absent where nesting stops. */
  parseInner?: (data: Uint8Array, filename: string, mimeType: string) => Promise<ParsedDocument>;
}

export type FormatParser = (ctx: ParseContext) => Promise<Omit<ParsedDocument, 'type'>>;
