/** Why a document could not be parsed, shaped for an HTTP answer: `{ status, code, detail }`. */
export type DocumentErrorCode =
  | 'unsupported_document'
  | 'unreadable_document'
  | 'document_too_large'
  | 'document_parse_timeout'
  | 'parser_unavailable';
type DocumentErrorStatus = 413 | 415 | 422 | 503;

/** `parser_unavailable` is the server's fault, not the document's: no parser thread could start. */
const STATUS: Record<DocumentErrorCode, DocumentErrorStatus> = {
  document_too_large: 413,
  unsupported_document: 415,
  unreadable_document: 422,
  document_parse_timeout: 422,
  parser_unavailable: 503,
};

export class DocumentError extends Error {
  readonly status: DocumentErrorStatus;
  readonly code: DocumentErrorCode;
  readonly detail: string;

  constructor(code: DocumentErrorCode, detail: string, options?: { cause?: unknown }) {
    super(`${code}: ${detail}`, options);
    this.name = 'DocumentError';
    this.code = code;
    this.status = STATUS[code];
    this.detail = detail;
  }

  toJSON(): { status: number; code: DocumentErrorCode; detail: string } {
    return { status: this.status, code: this.code, detail: this.detail };
  }
}

export const unsupported = (detail: string) => new DocumentError('unsupported_document', detail);
export const unreadable = (detail: string, cause?: unknown) =>
  new DocumentError('unreadable_document', detail, cause === undefined ? undefined : { cause });
export const tooLarge = (detail: string) => new DocumentError('document_too_large', detail);
export const parseTimeout = (detail: string) => new DocumentError('document_parse_timeout', detail);
export const parserUnavailable = (detail: string, cause: unknown) =>
  new DocumentError('parser_unavailable', detail, { cause });

/** Keeps DocumentErrors; anything else a parser throws means the file could not be read. */
export function asDocumentError(err: unknown, what: string): DocumentError {
  if (err instanceof DocumentError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return unreadable(`${what}: ${message}`.slice(0, 500), err);
}
