import type { HeaderChunk } from './markdown';
import { BLOCK_TAGS, tidyText, tokenizeHtml } from './html-text';

export interface HtmlSplitOptions {
  /** Pairs of a tag ('h1'…) and the metadata key that keeps the header's text. */
  headers: readonly (readonly [string, string])[];
  /** One chunk per block element instead of one per section. */
  returnEachElement: boolean;
}

/**
 * HTML header splitting: the text under each configured header becomes a chunk whose metadata holds the
 * headers above it (a new h2 replaces the previous h2 and drops any h3). Scripts, styles and comments are
 * left out.
 */
export function htmlSplit(html: string, options: HtmlSplitOptions): HeaderChunk[] {
  const levels = new Map(options.headers.map(([tag, name], i) => [tag.toLowerCase(), { name, level: i }]));
  const chunks: HeaderChunk[] = [];
  let active: { level: number; name: string; text: string }[] = [];
  let metadata: Record<string, string> = {};
  let buffer = '';
  let header: { tag: string; level: number; name: string; text: string } | null = null;

  const flush = () => {
    const content = tidyText(buffer);
    buffer = '';
    if (content !== '') chunks.push({ content, metadata });
  };

  for (const token of tokenizeHtml(html)) {
    if (token.kind === 'text') {
      if (header) header.text += token.text;
      else buffer += token.text;
      continue;
    }
    const configured = levels.get(token.tag);
    if (configured && token.kind === 'open' && !header) {
      flush();
      header = { tag: token.tag, ...configured, text: '' };
      continue;
    }
    if (header && token.kind === 'close' && token.tag === header.tag) {
      const { level, name } = header;
      active = active.filter((h) => h.level < level);
      active.push({ level, name, text: tidyText(header.text).replace(/\n/g, ' ') });
      metadata = Object.fromEntries(active.map((h) => [h.name, h.text]));
      header = null;
      continue;
    }
    if (BLOCK_TAGS.has(token.tag)) {
      if (options.returnEachElement && !header) flush();
      else buffer += '\n';
    } else if (token.tag === 'td' || token.tag === 'th') {
      buffer += ' ';
    }
  }
  flush();
  return chunks;
}
