import { convert, type FormatCallback, type SelectorDefinition } from 'html-to-text';
import { tableText } from './table-text';

/** How a page's links, images and content are read. By default links keep their text and images go. */
export interface HtmlTextOptions {
  /** `href`: a link as "text [url]" (the url left out when it is the text); `text`: its text alone. */
  links?: 'text' | 'href';
  /** An image as "alt [src]"; left out when false. */
  images?: boolean;
  /** Read only the first element these selectors match (`main` of a GitBook page), else the body. */
  content?: readonly string[] | undefined;
}

/** Elements that are not a page's text: code, styles, navigation, buttons, embeds. */
const SKIPPED = ['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'canvas', 'button', 'nav'];
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
/**
 * html-to-text's table as `tableText` makes it (table-text.ts): its own formats glue a layout table's
 * cells into one word ("VilleJoursTokyo4") or pad a data table's columns with spaces, wrapping long
 * cells across lines.
 */
const rowsTable: FormatCallback = (elem, walk, builder) => {
  type Node = { type: string; name?: string; children?: Node[]; attribs?: Record<string, string> };
  const tags = (node: Node) => (node.children ?? []).filter((c) => c.type === 'tag');
  const row = (tr: Node) => {
    builder.openTableRow();
    for (const cell of tags(tr)) {
      if (cell.name !== 'td' && cell.name !== 'th') continue;
      builder.openTableCell({ maxColumnWidth: Number.MAX_SAFE_INTEGER });
      walk(cell.children as never, builder);
      builder.closeTableCell({ colspan: 1, rowspan: 1 });
    }
    builder.closeTableRow();
  };
  const section = (node: Node) => {
    if (node.name === 'tr') row(node);
    else if (['thead', 'tbody', 'tfoot'].includes(node.name ?? '')) tags(node).forEach(section);
  };
  builder.openTable();
  tags(elem as Node).forEach(section);
  builder.closeTable({
    leadingLineBreaks: 2,
    trailingLineBreaks: 2,
    tableToString: (rows) => tableText(rows.map((r) => r.map((c) => c.text))),
  });
};

/**
 * Readable text of an HTML page or fragment with html-to-text, for every HTML the knowledge capability
 * reads (uploaded .html files, EPUB chapters, emails' HTML bodies, pages the loaders fetch): scripts,
 * styles, navigation, buttons and embeds dropped, headings as written, tables row by row.
 */
export function htmlToText(html: string, options: HtmlTextOptions = {}): string {
  const selectors: SelectorDefinition[] = [
    ...SKIPPED.map((selector) => ({ selector, format: 'skip' })),
    ...HEADINGS.map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: 'table', format: 'rowsTable' },
    options.links === 'href'
      ? { selector: 'a', options: { hideLinkHrefIfSameAsText: true, linkBrackets: ['[', ']'] } }
      : { selector: 'a', options: { ignoreHref: true } },
    options.images
      ? { selector: 'img', options: { linkBrackets: ['[', ']'] } }
      : { selector: 'img', format: 'skip' },
  ];
  return convert(html, {
    wordwrap: false,
    selectors,
    formatters: { rowsTable },
    ...(options.content
      ? { baseElements: { selectors: [...options.content], returnDomByDefault: true } }
      : {}),
  })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The text of an HTML fragment's first element matching `pattern` (its `<title>`, say), when not empty. */
export function htmlElementText(html: string, pattern: RegExp): string | undefined {
  const inner = pattern.exec(html)?.[1];
  const text = inner ? htmlToText(inner).replace(/\s+/g, ' ').trim() : '';
  return text || undefined;
}
