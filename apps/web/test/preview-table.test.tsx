import { act, createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { PreviewTable } from '../src/features/knowledge/preview-table';
import { pageText } from './dom-helpers';
import { reactRoot } from './react-root';

const dom = reactRoot();
const button = (label: string) => document.querySelector<HTMLButtonElement>(`[aria-label="${label}"]`)!;
const rows = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `r${from + i}`, content: `Row ${from + i}`, metadata: {} }));

describe("a connector collection's preview", () => {
  it('pages ten rows at a time: back to the offset before, on to the next while a page is full', () => {
    const onPage = vi.fn();
    dom.render(createElement(PreviewTable, { page: { rows: rows(10, 10), limit: 10, offset: 10 }, onPage }));
    expect(pageText()).toContain('Row 10');
    act(() => button('Previous rows').click());
    act(() => button('Next rows').click());
    expect(onPage.mock.calls).toEqual([[0], [20]]);

    dom.render(createElement(PreviewTable, { page: { rows: rows(20, 3), limit: 10, offset: 20 }, onPage }));
    expect(button('Next rows').disabled).toBe(true);
    dom.render(createElement(PreviewTable, { page: { rows: rows(0, 10), limit: 10, offset: 0 }, onPage }));
    expect(button('Previous rows').disabled).toBe(true);
  });
});
