import { createHash } from 'node:crypto';
import type { SqlClient } from '../stores/sql-client';

/**
 * What one OCR model read of one document's drawn pages (`rag_document_ocr`), by the sha256 of the JPEG
 * it was sent: a page drawn the same way again is not sent again (nor charged for).
 */
export interface OcrCache {
  /** The text read before of the image of this hash (`imageHash`), if any. */
  get(hash: string): string | undefined;
  /** Keeps what the model read of the image of this hash. */
  put(hash: string, text: string): Promise<void>;
  /** After a complete reading: forgets the document's pages not drawn this time (and other models' readings). */
  keepOnly(hashes: readonly string[]): Promise<void>;
}

/** A drawn page's key in the cache: its JPEG's sha256, hex. */
export const imageHash = (image: Uint8Array) => createHash('sha256').update(image).digest('hex');

/**
 * The document's cache for the model (its id and its name at the provider: a model record renamed to
 * another model reads again), loaded at once (a few hundred rows at most: one per page).
 */
export async function loadOcrCache(
  sql: SqlClient,
  documentId: string,
  model: { id: string; modelName: string },
): Promise<OcrCache> {
  const rows = await sql.query<{ image_sha256: string; text: string }>(
    `SELECT image_sha256, text FROM rag_document_ocr
      WHERE document_id = $1 AND model_id = $2 AND model_name = $3`,
    [documentId, model.id, model.modelName],
  );
  const read = new Map(rows.map((r) => [r.image_sha256, r.text]));
  return {
    get: (hash) => read.get(hash),
    async put(hash, text) {
      read.set(hash, text);
      // The document may have been deleted meanwhile (its ingestion then stops at its next write).
      await sql.query(
        `INSERT INTO rag_document_ocr (document_id, model_id, model_name, image_sha256, text)
         SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM rag_documents WHERE id = $1)
         ON CONFLICT (document_id, model_id, image_sha256)
         DO UPDATE SET model_name = excluded.model_name, text = excluded.text, created_at = now()`,
        [documentId, model.id, model.modelName, hash, text],
      );
    },
    async keepOnly(hashes) {
      await sql.query(
        `DELETE FROM rag_document_ocr
          WHERE document_id = $1
            AND NOT (model_id = $2 AND model_name = $3 AND image_sha256 = ANY($4::text[]))`,
        [documentId, model.id, model.modelName, hashes],
      );
    },
  };
}
