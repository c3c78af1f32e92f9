import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../src/features/chat/markdown';
import { parseBlocks, parseInline, safeHref } from '../src/features/chat/markdown-parse';

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe('the chat markdown', () => {
  it('escapes everything: HTML in the text stays text', () => {
    const out = html('<script>alert(1)</script> <img src=x onerror=alert(1)> **<b>x</b>**');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;script&gt;');
    expect(out).toContain('<strong>&lt;b&gt;x&lt;/b&gt;</strong>');
  });

  it('links only to http(s) addresses', () => {
    expect(html('[site](https://example.com/a?b=1)')).toContain(
      '<a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer nofollow"',
    );
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', '/relative', 'JaVaScRiPt:alert(1)']) {
      const out = html(`[click](${bad})`);
      expect(out, bad).not.toContain('<a');
      expect(out).toContain('click');
    }
    expect(safeHref('https://ok.test')).toBe('https://ok.test/');
    expect(safeHref('ftp://x')).toBeNull();
    expect(html('see https://example.com/x.')).toContain('<a href="https://example.com/x"');
  });

  it('paragraphs, line breaks, bold, italic and code', () => {
    expect(html('one\ntwo\n\nthree')).toBe(
      '<div data-testid="markdown" class="grid gap-2 break-words text-sm leading-relaxed"><p>one<br/>two</p><p>three</p></div>',
    );
    expect(parseInline('**b** and *i* and _u_ and `c*d*`')).toEqual([
      { kind: 'strong', children: [{ kind: 'text', text: 'b' }] },
      { kind: 'text', text: ' and ' },
      { kind: 'em', children: [{ kind: 'text', text: 'i' }] },
      { kind: 'text', text: ' and ' },
      { kind: 'em', children: [{ kind: 'text', text: 'u' }] },
      { kind: 'text', text: ' and ' },
      { kind: 'code', text: 'c*d*' },
    ]);
    // Identifiers with underscores and lone stars are not emphasis.
    expect(parseInline('snake_case_name and 2 * 3 * 4')).toEqual([
      { kind: 'text', text: 'snake_case_name and 2 * 3 * 4' },
    ]);
  });

  it('fenced code blocks keep their text as is, even unclosed while streaming', () => {
    expect(parseBlocks('Intro\n```ts\nconst a = 1 < 2;\n**not bold**\n```\nAfter')).toEqual([
      { kind: 'paragraph', text: 'Intro' },
      { kind: 'code', lang: 'ts', text: 'const a = 1 < 2;\n**not bold**' },
      { kind: 'paragraph', text: 'After' },
    ]);
    expect(parseBlocks('```\npartial')).toEqual([{ kind: 'code', lang: '', text: 'partial' }]);
    expect(html('```\n<b>x</b>\n```')).toContain('<pre');
    expect(html('```\n<b>x</b>\n```')).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  it('lists, headings, quotes', () => {
    expect(parseBlocks('- a\n- b\n  more\n\n3. x\n4. y\n# Title\n> quoted')).toEqual([
      { kind: 'list', ordered: false, start: 1, items: ['a', 'b\nmore'] },
      { kind: 'list', ordered: true, start: 3, items: ['x', 'y'] },
      { kind: 'heading', level: 1, text: 'Title' },
      { kind: 'quote', text: 'quoted' },
    ]);
    expect(html('1. one\n2. two')).toContain(
      '<ol start="1" class="list-decimal space-y-1 pl-5"><li>one</li>',
    );
  });
});
