const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  copy: '©',
  reg: '®',
  euro: '€',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    const key = name.toLowerCase();
    return Object.hasOwn(ENTITIES, key) ? ENTITIES[key]! : whole;
  });
}

export type HtmlToken =
  { kind: 'open' | 'close'; tag: string; attrs: string } | { kind: 'text'; text: string };

/** Elements whose content is not text to keep. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);

/** Elements that start a new block of text. */
export const BLOCK_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'nav',
  'ul',
  'ol',
  'li',
  'table',
  'tr',
  'br',
  'hr',
  'pre',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'dl',
  'dt',
  'dd',
  'figure',
  'figcaption',
]);

/** A forgiving tokenizer: tags and text in order, comments and hidden elements dropped. */
export function tokenizeHtml(html: string): HtmlToken[] {
  const tokens: HtmlToken[] = [];
  const re = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<!?[^>]*>|[^<]+|</g;
  let hidden: string | null = null;
  for (const m of html.matchAll(re)) {
    const part = m[0];
    const tag = /^<\s*(\/)?\s*([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>$/.exec(part);
    if (hidden !== null) {
      if (tag?.[1] && tag[2]!.toLowerCase() === hidden) hidden = null;
      continue;
    }
    if (part.startsWith('<!')) continue;
    if (tag) {
      const name = tag[2]!.toLowerCase();
      if (!tag[1] && HIDDEN.has(name) && !tag[3]!.trim().endsWith('/')) {
        hidden = name;
        continue;
      }
      tokens.push({ kind: tag[1] ? 'close' : 'open', tag: name, attrs: tag[3] ?? '' });
    } else {
      tokens.push({ kind: 'text', text: decodeEntities(part) });
    }
  }
  return tokens;
}

/** Collapses runs of spaces, trims lines and drops empty ones. */
export const tidyText = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');

export const attribute = (attrs: string, name: string): string | null => {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(attrs);
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? '') : null;
};
