import { describe, expect, it } from 'vitest';
import {
  answerSource,
  MAX_ANSWER_SOURCES,
  mergeSources,
  SOURCE_EXCERPT_CHARS,
  sourcesOfDocuments,
} from '../src/retrieve/answer-sources';

const doc = (content: string, metadata: Record<string, unknown>) => ({ pageContent: content, metadata });

describe("an answer's sources", () => {
  it('a retrieved chunk becomes a source with its collection, file, chunk, score and excerpt', () => {
    const long = 'x'.repeat(SOURCE_EXCERPT_CHARS + 50);
    expect(
      answerSource(
        { id: 'c1', name: 'Policies' },
        {
          content: long,
          score: 0.7,
          metadata: { type: 'markdown' },
          source: { collection_id: 'c1', document_id: 'd1', filename: 'a.md', chunk_index: 3 },
        },
      ),
    ).toEqual({
      collection_id: 'c1',
      collection_name: 'Policies',
      document_id: 'd1',
      filename: 'a.md',
      chunk_index: 3,
      score: 0.7,
      excerpt: 'x'.repeat(SOURCE_EXCERPT_CHARS),
    });
  });

  it('a chunk of a PDF page, a sheet, a slide, a chapter or an attachment names it; metadata of another shape is left out', () => {
    const of = (metadata: Record<string, unknown>) => {
      const source = answerSource(
        { id: 'c1', name: 'Policies' },
        {
          content: 'text',
          score: 0.5,
          metadata,
          source: { collection_id: 'c1', document_id: 'd1', filename: 'f', chunk_index: 0 },
        },
      );
      const places = ['page', 'sheet', 'slide', 'chapter', 'attachment'] as const;
      return Object.fromEntries(places.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
    };
    expect(of({ type: 'pdf', page: 12, pages: 40 })).toEqual({ page: 12 });
    expect(of({ type: 'xlsx', sheet: 'Q3 costs', sheets: 2 })).toEqual({ sheet: 'Q3 costs' });
    expect(of({ type: 'odp', slide: 4, slides: 9 })).toEqual({ slide: 4 });
    expect(of({ type: 'epub', chapter: 'The Beginning', chapters: 2 })).toEqual({ chapter: 'The Beginning' });
    expect(of({ type: 'email', attachment: 'agenda.txt', attachments: 2 })).toEqual({
      attachment: 'agenda.txt',
    });
    expect(of({ page: '12', sheet: 3, slide: 1.5, chapter: 7, attachment: ['a'] })).toEqual({});
    expect(of({ page: 0, sheet: '', slide: -1, chapter: '', attachment: '' })).toEqual({});
    // Through a knowledge retrieve node's documents too.
    const [fromNode] = sourcesOfDocuments([
      doc('Page text', { collection_id: 'c1', filename: 'r.pdf', chunk_index: 4, score: 0.3, page: 7 }),
    ]);
    expect(fromNode).toMatchObject({ filename: 'r.pdf', chunk_index: 4, page: 7 });
  });

  it("reads a knowledge retrieve node's documents; those from no collection are left out", () => {
    const found = sourcesOfDocuments([
      doc('Refunds within 45 days.', {
        collection_id: 'c1',
        collection_name: 'Policies',
        document_id: 'd1',
        filename: 'refunds.md',
        chunk_index: 0,
        score: 0.4,
      }),
      // A foreign chunk (external store): no document fields.
      doc('Row of a foreign table', { collection_id: 'c2', score: 0.2, chunk_index: 1.5 }),
      doc('Made by a loader', { source: 'https://example.test' }),
      { pageContent: 42, metadata: {} },
      'not a document',
    ]);
    expect(found).toEqual([
      {
        collection_id: 'c1',
        collection_name: 'Policies',
        document_id: 'd1',
        filename: 'refunds.md',
        chunk_index: 0,
        score: 0.4,
        excerpt: 'Refunds within 45 days.',
      },
      {
        collection_id: 'c2',
        collection_name: '',
        document_id: null,
        filename: null,
        chunk_index: null,
        score: 0.2,
        excerpt: 'Row of a foreign table',
      },
    ]);
    expect(sourcesOfDocuments(undefined)).toEqual([]);
    expect(sourcesOfDocuments({ documents: [] })).toEqual([]);
  });

  it('merges the finds of several nodes: each passage once with its best score, best first, capped', () => {
    const source = (chunk: number, score: number) =>
      answerSource(
        { id: 'c', name: 'C' },
        {
          content: `chunk ${chunk}`,
          score,
          metadata: {},
          source: { collection_id: 'c', document_id: 'd', filename: 'f', chunk_index: chunk },
        },
      );
    const merged = mergeSources([source(1, 0.3), source(2, 0.9)], [source(1, 0.5), source(3, 0.1)]);
    expect(merged.map((s) => [s.chunk_index, s.score])).toEqual([
      [2, 0.9],
      [1, 0.5],
      [3, 0.1],
    ]);
    const many = Array.from({ length: MAX_ANSWER_SOURCES + 5 }, (_, i) => source(i, i));
    const capped = mergeSources([], many);
    expect(capped).toHaveLength(MAX_ANSWER_SOURCES);
    expect(capped[0]!.score).toBe(MAX_ANSWER_SOURCES + 4);
  });
});
