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

/** POST /v1/ocr (Mistral OCR). Data URLs are measured; other URLs are never fetched (no internet in tests). */
export async function ocr(ex: Exchange): Promise<void> {
  const body = requireObject(ex.json);
  const model = requireModel(ex, body);
  const url = documentUrl(body.document);
  if (!(await passModelSwitches(ex, model, false))) return;
  const data = /^data:[^,]*;base64,(.*)$/s.exec(url);
  const bytes = data ? Buffer.from(data[1] ?? '', 'base64').length : undefined;
  const markdown = bytes === undefined ? `OCR text of ${url}` : `OCR text of ${bytes} bytes`;
  sendJson(ex.res, 200, {
    pages: [{ index: 0, markdown, images: [], dimensions: { dpi: 200, height: 2200, width: 1700 } }],
    model,
    document_annotation: null,
    usage_info: { pages_processed: 1, doc_size_bytes: bytes ?? null },
  });
}
