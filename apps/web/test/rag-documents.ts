import type { RagDocument } from '@atelier/schemas';

/** A ready PDF of a collection, as the documents list answers it; `fields` change what a test needs. */
export const ragDocument = (fields: Partial<RagDocument> = {}): RagDocument => ({
  id: 'd1',
  collection_id: 'c1',
  filename: 'scan.pdf',
  source_url: null,
  type: 'pdf',
  size_bytes: 2048,
  status: 'ready',
  progress: 1,
  chunk_count: 3,
  chunks_skipped: 0,
  ocr_pages: 0,
  ocr_pictures: 0,
  metadata: {},
  error: null,
  created_at: '2026-11-30T10:00:00.000Z',
  updated_at: '2026-11-30T10:00:00.000Z',
  ...fields,
});
