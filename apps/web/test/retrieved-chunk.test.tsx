import type { RetrievedChunk } from '@atelier/schemas';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { RetrievedChunkItem } from '../src/features/knowledge/retrieved-chunk';
import { reactRoot } from './react-root';

const chunk = (filename: string, index: number, metadata: Record<string, unknown>): RetrievedChunk => ({
  id: `doc:${index}`,
  content: `passage ${index}`,
  score: 0.4213,
  metadata,
  source: { collection_id: 'c1', document_id: 'doc', filename, chunk_index: index },
});

describe('a test retrieval chunk says where it sits in its document', () => {
  const root = reactRoot();
  const line = (c: RetrievedChunk) => {
    root.remount();
    root.render(createElement('ol', null, createElement(RetrievedChunkItem, { chunk: c })));
    return root.container.querySelector('[data-testid=retrieved-chunk] div')?.textContent;
  };

  it('the page of a PDF, the sheet of a spreadsheet, the slide of a deck, the chapter of a book, the attachment of an email, only the chunk otherwise', () => {
    expect(line(chunk('report.pdf', 4, { type: 'pdf', page: 2, pages: 9 }))).toBe(
      '0.42report.pdfchunk 4page 2',
    );
    expect(line(chunk('budget.xlsx', 1, { type: 'xlsx', sheet: 'Q3 costs', sheets: 2 }))).toBe(
      '0.42budget.xlsxchunk 1sheet “Q3 costs”',
    );
    expect(line(chunk('deck.pptx', 3, { type: 'pptx', slide: 2, slides: 5 }))).toBe(
      '0.42deck.pptxchunk 3slide 2',
    );
    expect(line(chunk('guide.epub', 2, { type: 'epub', chapter: 'Getting started', chapters: 8 }))).toBe(
      '0.42guide.epubchunk 2chapter “Getting started”',
    );
    expect(line(chunk('kickoff.eml', 1, { type: 'email', attachment: 'agenda.txt', attachments: 2 }))).toBe(
      '0.42kickoff.emlchunk 1attachment “agenda.txt”',
    );
    expect(line(chunk('notes.md', 0, { type: 'markdown' }))).toBe('0.42notes.mdchunk 0');
  });
});
