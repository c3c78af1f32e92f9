import { invalid } from './errors';
import { isRecord, requireModel, requireObject, sendJson } from './exchange';
import { passModelSwitches } from './model-switches';
import type { Exchange } from './types';

/** The URL of a Mistral OCR `document`: image_url may be a string or `{ url }`. */
function documentUrl(document: unknown): string {
  if (isRecord(document)) {
    const image = isRecord(document.image_url) ? document.image_url.url : document.image_url;
    if (document.type === 'image_url' && typeof image === 'string') return image;
    if (document.type === 'document_url' && typeof document.document_url === 'string') {
      return document.document_url;
    }
  }
  throw invalid(
    "'document' must be { type: 'image_url', image_url } or { type: 'document_url', document_url }.",
  );
}

/** A JPEG's pixel size, from its start-of-frame segment; undefined for anything else. */
export function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xc3) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return undefined;
}

/**
 * POST /v1/ocr (Mistral OCR). Data URLs are measured (a JPEG's pixel size too: what a page drawn for
 * OCR looked like); other URLs are never fetched (no internet in tests).
 */
export async function ocr(ex: Exchange): Promise<void> {
  const body = requireObject(ex.json);
  const model = requireModel(ex, body);
  const url = documentUrl(body.document);
  if (!(await passModelSwitches(ex, model, false))) return;
  const data = /^data:[^,]*;base64,(.*)$/s.exec(url);
  const decoded = data ? Buffer.from(data[1] ?? '', 'base64') : undefined;
  const bytes = decoded?.length;
  const size = decoded && jpegSize(decoded);
  const markdown =
    bytes === undefined
      ? `OCR text of ${url}`
      : `OCR text of ${bytes} bytes${size ? ` (a ${size.width}×${size.height} JPEG)` : ''}`;
  sendJson(ex.res, 200, {
    pages: [{ index: 0, markdown, images: [], dimensions: { dpi: 200, height: 2200, width: 1700 } }],
    model,
    document_annotation: null,
    usage_info: { pages_processed: 1, doc_size_bytes: bytes ?? null },
  });
}
