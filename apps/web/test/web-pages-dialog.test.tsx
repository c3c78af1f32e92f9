import { act, createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { webPageLabel } from '../src/features/knowledge/format';
import { checkPageUrl, filterParts, WebPagesDialog } from '../src/features/knowledge/web-pages-dialog';
import { buttonNamed, flush, pageText, typeInto } from './dom-helpers';
import { reactRoot } from './react-root';

const dom = reactRoot();
afterEach(() => vi.unstubAllGlobals());
const page = pageText;
const button = buttonNamed;
const input = (label: string) => {
  const found = [...document.querySelectorAll('label')].find((l) => l.textContent === label);
  return document.getElementById(found!.htmlFor) as HTMLInputElement;
};
const type = typeInto;

describe('adding web pages to a collection', () => {
  it('an address is http(s); filter parts are split at commas', () => {
    expect(checkPageUrl('  ')).toBe('empty');
    expect(checkPageUrl('example.com/docs')).toBe('invalid');
    expect(checkPageUrl('javascript:alert(1)')).toBe('invalid');
    expect(checkPageUrl(' https://example.com/docs ')).toBeNull();
    expect(filterParts(' /docs/, ,/help/* ')).toEqual(['/docs/', '/help/*']);
  });

  it('a web page is listed by its path, its site apart (the site alone for a home page)', () => {
    expect(webPageLabel('https://help.example.com/guides/r%C3%A9glages?lang=fr')).toEqual({
      name: '/guides/réglages?lang=fr',
      site: 'help.example.com',
    });
    expect(webPageLabel('https://help.example.com/')).toEqual({
      name: 'help.example.com',
      site: 'help.example.com',
    });
    expect(webPageLabel('not a url')).toEqual({ name: 'not a url', site: '' });
  });

  it('checks the form, then sends one page or a sitemap with its limit and filter', async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        sent.push(JSON.parse(String(init.body)));
        return new Response(JSON.stringify({ documents: [{ id: 'd1' }, { id: 'd2' }] }), {
          status: 202,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    // jsdom has no ResizeObserver, which Radix's checkbox measures itself with.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
    const onAdded = vi.fn();
    const onClose = vi.fn();
    dom.render(createElement(WebPagesDialog, { collectionId: 'c1', open: true, onClose, onAdded }));
    act(() => button('Add').click());
    expect(page()).toContain('Enter the address of a page.');
    type(input('Page or sitemap address'), 'docs.example.com');
    act(() => button('Add').click());
    expect(page()).toContain('Enter an address starting with http:// or https://.');
    expect(sent).toEqual([]);

    type(input('Page or sitemap address'), 'https://docs.example.com/sitemap.xml');
    act(() => (document.querySelector('[role=checkbox]') as HTMLButtonElement).click());
    type(input('At most (pages)'), '900');
    act(() => button('Add').click());
    expect(page()).toContain('Between 1 and 500 pages.');
    type(input('At most (pages)'), '20');
    type(input('Only addresses containing'), '/guide/, /faq');
    act(() => button('Add').click());
    await flush();
    expect(sent).toEqual([
      {
        url: 'https://docs.example.com/sitemap.xml',
        sitemap: true,
        max_pages: 20,
        filter: ['/guide/', '/faq'],
      },
    ]);
    expect(onAdded).toHaveBeenCalled();
    expect(onClose).toHaveBeenCalled();
  });
});
