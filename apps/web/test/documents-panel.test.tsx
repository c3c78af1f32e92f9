import type { RagCollection, RagDocument } from '@atelier/schemas';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countByState, filterDocuments } from '../src/features/knowledge/document-filter';
import { DocumentsPanel } from '../src/features/knowledge/documents-panel';
import { buttonNamed, pageText, typeInto } from './dom-helpers';
import { ragDocument } from './rag-documents';
import { reactRoot } from './react-root';

const dom = reactRoot();
afterEach(() => vi.unstubAllGlobals());

const documentOf = (i: number, fields: Partial<RagDocument> = {}): RagDocument =>
  ragDocument({ id: `d${i}`, filename: `report-${i}.pdf`, ...fields });

describe('finding documents', () => {
  const documents = [
    documentOf(1, { filename: 'Règlement intérieur.pdf' }),
    documentOf(2, { status: 'failed', error: 'unreadable' }),
    documentOf(3, { status: 'queued', progress: 0 }),
    documentOf(4, { status: 'processing', progress: 0.5 }),
    documentOf(5, { filename: 'returns', source_url: 'https://help.example.com/returns' }),
  ];

  it('by name or address, whatever the case and accents, and by state', () => {
    const names = (list: RagDocument[]) => list.map((d) => d.id);
    expect(names(filterDocuments(documents, { text: 'reglement', state: 'all' }))).toEqual(['d1']);
    expect(names(filterDocuments(documents, { text: 'HELP.example', state: 'all' }))).toEqual(['d5']);
    expect(names(filterDocuments(documents, { text: '', state: 'waiting' }))).toEqual(['d3', 'd4']);
    expect(names(filterDocuments(documents, { text: 'report', state: 'failed' }))).toEqual(['d2']);
    expect(countByState(documents)).toEqual({ all: 5, waiting: 2, ready: 2, failed: 1 });
  });

  it('the list offers a search from 8 documents on, and draws 100 rows, then more on demand', async () => {
    const many = Array.from({ length: 130 }, (_, i) => documentOf(i));
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ documents: many }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    const collection = { id: 'c1', workspace_id: 'w1', writable: true } as RagCollection;
    dom.render(
      createElement(
        QueryClientProvider,
        { client: new QueryClient({ defaultOptions: { queries: { retry: false } } }) },
        createElement(DocumentsPanel, { collection }),
      ),
    );
    for (let i = 0; i < 50 && !document.querySelector('[data-testid=documents-list]'); i++)
      await act(() => new Promise((r) => setTimeout(r, 20)));
    const rows = () => document.querySelectorAll('[data-testid=document-row]').length;
    expect(rows()).toBe(100);
    act(() => buttonNamed('Show more (30 left)').click());
    expect(rows()).toBe(130);
    const search = document.querySelector<HTMLInputElement>('input[aria-label="Find a document"]')!;
    typeInto(search, 'report-12');
    // report-12 and report-120 to report-129.
    expect(rows()).toBe(11);
    typeInto(search, 'minutes');
    expect(rows()).toBe(0);
    expect(pageText()).toContain('No document matches.');
    // 130 rows drawn three times in jsdom take seconds on a loaded machine: more than the default 5.
  }, 30_000);
});
