import { XMLParser } from 'fast-xml-parser';
import { tableText } from './table-text';

export type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: true,
  // Character references (`&#39;`, `&#x2019;`) are decoded only with this on (it also knows HTML's
  // named entities, which Office XML never uses): writers such as pandoc put quotes that way.
  htmlEntities: true,
});

/** Parses XML into fast-xml-parser's ordered form (arrays of `{ tag: children, ':@': attributes }`). */
export function parseXml(xml: string): XmlNode[] {
  return parser.parse(xml) as XmlNode[];
}

/** A node's tag (`#text` for text). */
export const tagOf = (node: XmlNode) => Object.keys(node).find((k) => k !== ':@');
/** A node's attributes (none: an empty object). */
export const attrsOf = (node: XmlNode) => (node[':@'] ?? {}) as Record<string, string>;
/** An element's child nodes (none for text). */
export const childrenOf = (node: XmlNode): XmlNode[] => {
  const tag = tagOf(node);
  const children = tag === undefined ? undefined : node[tag];
  return Array.isArray(children) ? (children as XmlNode[]) : [];
};

/** The elements with this tag, outermost first, not looking inside a found one. */
export function outermost(nodes: XmlNode[], wanted: string): XmlNode[] {
  const found: XmlNode[] = [];
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === undefined || tag === '#text') continue;
    if (tag === wanted) found.push(node);
    else found.push(...outermost(childrenOf(node), wanted));
  }
  return found;
}

export interface TextRules {
  /** Elements whose text makes one paragraph (e.g. `a:p`, `text:p`). */
  paragraphs: ReadonlySet<string>;
  /** Elements that stand for some text (a tab, a line break, n spaces). */
  inline?: Readonly<Record<string, (attrs: Record<string, string>) => string>>;
  /** Elements to leave out, children included. */
  skip?: ReadonlySet<string>;
  /**
   * A format's table elements: a table is then one paragraph (tagged as the table), read by
   * `tableText`: a line per row, its cells between ` | ` (a cell's paragraphs on lines of their own).
   */
  table?: { table: string; row: string; cell: string };
}

/** The text of each paragraph element, in document order (a paragraph nested in another joins it). */
export function paragraphsOf(
  nodes: XmlNode[],
  rules: TextRules,
): { tag: string; attrs: Record<string, string>; text: string }[] {
  const found: { tag: string; attrs: Record<string, string>; text: string }[] = [];
  const textOf = (list: XmlNode[]): string => {
    let text = '';
    for (const node of list) {
      const tag = tagOf(node);
      if (tag === undefined) continue;
      if (tag === '#text') text += String(node[tag]);
      else if (rules.skip?.has(tag)) continue;
      else if (rules.inline?.[tag]) text += rules.inline[tag](attrsOf(node));
      else if (Array.isArray(node[tag]))
        text += (rules.paragraphs.has(tag) ? ' ' : '') + textOf(node[tag] as XmlNode[]);
    }
    return text;
  };
  const tableOf = (children: XmlNode[], table: NonNullable<TextRules['table']>) =>
    tableText(
      outermost(children, table.row).map((row) =>
        outermost(childrenOf(row), table.cell).map((cell) =>
          paragraphsOf(childrenOf(cell), rules)
            .map((p) => tidy(p.text))
            .filter(Boolean)
            .join('\n'),
        ),
      ),
    );
  const walk = (list: XmlNode[]) => {
    for (const node of list) {
      const tag = tagOf(node);
      if (tag === undefined || tag === '#text' || rules.skip?.has(tag) || !Array.isArray(node[tag])) continue;
      if (rules.table?.table === tag)
        found.push({ tag, attrs: attrsOf(node), text: tableOf(node[tag] as XmlNode[], rules.table) });
      else if (rules.paragraphs.has(tag))
        found.push({ tag, attrs: attrsOf(node), text: textOf(node[tag] as XmlNode[]) });
      else walk(node[tag] as XmlNode[]);
    }
  };
  walk(nodes);
  return found;
}

/** The text of the first element with this tag, anywhere in the tree. */
export function firstText(nodes: XmlNode[], wanted: string): string | undefined {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === undefined || tag === '#text' || !Array.isArray(node[tag])) continue;
    const children = node[tag] as XmlNode[];
    if (tag === wanted)
      return children.map((c) => (typeof c['#text'] === 'string' ? c['#text'] : '')).join('');
    const inner = firstText(children, wanted);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** Every element with this tag, anywhere in the tree, as its attributes. */
export function elementsOf(nodes: XmlNode[], wanted: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag === undefined || tag === '#text') continue;
    if (tag === wanted) found.push(attrsOf(node));
    if (Array.isArray(node[tag])) found.push(...elementsOf(node[tag] as XmlNode[], wanted));
  }
  return found;
}

/** Collapses runs of spaces and trims a paragraph's text. */
export const tidy = (text: string) =>
  text
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .trim();
