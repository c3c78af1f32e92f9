import type { RagDocument } from '@atelier/schemas';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { DocumentItem } from '../src/features/knowledge/document-item';
import { pageText } from './dom-helpers';
import { reactRoot } from './react-root';

const dom = reactRoot();

const documentOf = (fields: Partial<RagDocument>): RagDocument => ({
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
  error: null,
  created_at: '2026-11-30T10:00:00.000Z',
  updated_at: '2026-11-30T10:00:00.000Z',
  ...fields,
});

const show = (fields: Partial<RagDocument>) => {
  dom.remount();
  dom.render(createElement(DocumentItem, { document: documentOf(fields), onRefetch() {}, onDelete() {} }));
  return pageText();
};

describe('a document row', () => {
  it('says how many scanned pages OCR read, and that an image was read by OCR', () => {
    expect(show({ ocr_pages: 2 })).toContain('2 KB · 3 chunks · 2 scanned pages read by OCR');
    expect(show({ ocr_pages: 0 })).not.toContain('OCR');
    const image = show({ filename: 'whiteboard.jpg', type: 'image', ocr_pages: 1, chunk_count: 1 });
    expect(image).toContain('whiteboard.jpg');
    expect(image).toContain('1 chunk · read by OCR');
    expect(image).not.toContain('scanned page');
  });
});
