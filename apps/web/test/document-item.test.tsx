import type { RagDocument } from '@atelier/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DocumentChunksDialog } from '../src/features/knowledge/document-chunks-dialog';
import { DocumentItem } from '../src/features/knowledge/document-item';
import { pageText } from './dom-helpers';
import { ragDocument } from './rag-documents';
import { reactRoot } from './react-root';

const dom = reactRoot();

const onShowChunks = vi.fn();
const onEditFields = vi.fn();
const show = (fields: Partial<RagDocument>) => {
  dom.remount();
  dom.render(
    createElement(DocumentItem, {
      document: ragDocument(fields),
      selected: false,
      onSelect() {},
      onRefetch() {},
      onShowChunks,
      onEditFields,
      onDelete() {},
    }),
  );
  return pageText();
};

describe('a document row', () => {
  it('says how many scanned pages or pictures OCR read, and that an image was read by OCR', () => {
    expect(show({ type: 'pdf', ocr_pages: 2 })).toContain('2 KB · 3 chunks · 2 scanned pages read by OCR');
    const slides = show({ filename: 'deck.pptx', type: 'pptx', ocr_pictures: 1 });
    expect(slides).toContain('3 chunks · 1 picture read by OCR');
    expect(slides).not.toContain('scanned page');
    // A PDF of scans and of typed pages with screenshots: both counts.
    expect(show({ type: 'pdf', ocr_pages: 1, ocr_pictures: 3 })).toContain(
      '3 chunks · 1 scanned page read by OCR · 3 pictures read by OCR',
    );
    expect(show({ ocr_pages: 0 })).not.toContain('OCR');
    const image = show({ filename: 'whiteboard.jpg', type: 'image', ocr_pages: 1, chunk_count: 1 });
    expect(image).toContain('whiteboard.jpg');
    expect(image).toContain('1 chunk · read by OCR');
    expect(image).not.toContain('scanned page');
  });

  it("a folder's file shows its folders muted before its name, wrapping rather than cut", () => {
    expect(show({ filename: 'policies/2024/leave.md' })).toContain('policies/2024/leave.md');
    const name = document.querySelector('[data-testid=document-row] p')!;
    expect(name.className).toContain('[overflow-wrap:anywhere]');
    expect(name.querySelector('span')!.textContent).toBe('policies/2024/');
    show({ filename: 'alone.md' });
    expect(document.querySelector('[data-testid=document-row] p span')!.textContent).toBe('');
  });

  it('shows its own fields as name: value, and offers to edit them whatever its state', () => {
    const text = show({ filename: 'leave.md', metadata: { department: 'HR', year: 2024, public: false } });
    expect(text).toContain('department: HR');
    expect(text).toContain('year: 2024');
    expect(text).toContain('public: false');
    expect(document.querySelector('[aria-label="Fields of leave.md"]')!.children).toHaveLength(3);
    act(() =>
      document.querySelector<HTMLButtonElement>('[aria-label="Edit the fields of leave.md"]')!.click(),
    );
    expect(onEditFields).toHaveBeenCalledOnce();
    show({ filename: 'plain.md', status: 'queued', metadata: {} });
    expect(document.querySelector('[aria-label="Fields of plain.md"]')).toBeNull();
    expect(document.querySelector('[aria-label="Edit the fields of plain.md"]')).not.toBeNull();
  });

  it('a ready document with chunks offers to show them; one still processing does not', () => {
    show({ filename: 'policy.pdf' });
    const button = document.querySelector<HTMLButtonElement>('[aria-label="Show the chunks of policy.pdf"]');
    act(() => button!.click());
    expect(onShowChunks).toHaveBeenCalledOnce();
    show({ filename: 'policy.pdf', status: 'processing', progress: 0.4 });
    expect(document.querySelector('[aria-label="Show the chunks of policy.pdf"]')).toBeNull();
  });
});

describe("a document's chunks", () => {
  afterEach(() => vi.unstubAllGlobals());
  const chunk = (index: number, metadata: Record<string, unknown> = {}) => ({
    id: `d1:${index}`,
    content: `Text of chunk ${index}.`,
    metadata: { document_id: 'd1', filename: 'scan.pdf', chunk_index: index, ...metadata },
  });
  const until = async (text: string) => {
    for (let i = 0; i < 50 && !pageText().includes(text); i++)
      await act(() => new Promise((r) => setTimeout(r, 20)));
  };

  it('shows them twenty at a time with where each sits, and asks for the next page', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(String(url));
        const offset = Number(new URL(String(url), 'http://x').searchParams.get('offset'));
        const chunks =
          offset === 0
            ? [
                chunk(0, { page: 1 }),
                chunk(1, { page: 2, ocr: true }),
                ...Array.from({ length: 18 }, (_, i) => chunk(i + 2)),
              ]
            : [chunk(20, { page: 9 })];
        return new Response(JSON.stringify({ chunks, total: 21, limit: 20, offset }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    dom.render(
      createElement(
        QueryClientProvider,
        { client: new QueryClient({ defaultOptions: { queries: { retry: false } } }) },
        createElement(DocumentChunksDialog, {
          collectionId: 'c1',
          document: ragDocument({ chunk_count: 21 }),
          onClose() {},
        }),
      ),
    );
    await until('Chunks 1–20 of 21');
    expect(pageText()).toContain('Chunks of scan.pdf');
    const items = [...document.querySelectorAll('[data-testid=document-chunk]')].map((li) => li.textContent);
    expect(items).toHaveLength(20);
    expect(items[0]).toBe('chunk 0page 116 charactersText of chunk 0.');
    expect(items[1]).toBe('chunk 1page 2read by OCR16 charactersText of chunk 1.');
    expect(asked[0]).toMatch(/\/rag_collections\/c1\/documents\/d1\/chunks\?limit=20&offset=0$/);
    const next = document.querySelector<HTMLButtonElement>('[aria-label="Next chunks"]')!;
    act(() => next.click());
    await until('Chunks 21–21 of 21');
    expect(pageText()).toContain('Text of chunk 20.');
    expect(document.querySelector<HTMLButtonElement>('[aria-label="Next chunks"]')!.disabled).toBe(true);
  });
});
