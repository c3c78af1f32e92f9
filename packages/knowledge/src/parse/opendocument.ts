import { posix } from 'node:path';
import { unreadable } from './errors';
import { titleFrom } from './office';
import { readablePictures } from './pictures';
import { cellText, sheetsDocument, type SheetRows } from './spreadsheet';
import type { DocumentSection, FormatParser } from './types';
import {
  attrsOf,
  childrenOf,
  elementsOf,
  outermost,
  paragraphsOf,
  parseXml,
  tagOf,
  tidy,
  type TextRules,
  type XmlNode,
} from './xml';
import { ZipArchive } from './zip';

/** OpenDocument text: paragraphs and headings, spaces, tabs and line breaks (ODT, ODS cells, ODP). */
const ODF_TEXT: TextRules = {
  paragraphs: new Set(['text:p', 'text:h']),
  inline: {
    'text:s': (a) => ' '.repeat(Math.min(Number(a['text:c'] ?? 1) || 1, 100)),
    'text:tab': () => '\t',
    'text:line-break': () => '\n',
  },
  // Tracked deletions and annotations are not part of the document's text.
  skip: new Set(['text:tracked-changes', 'office:annotation', 'text:note-citation']),
  // A table (in a text or on a slide) reads a line per row (a spreadsheet's sheets are read apart).
  table: { table: 'table:table', row: 'table:table-row', cell: 'table:table-cell' },
};

/** Speaker notes leave out their fields: the page number, the date, the header and the footer. */
const NOTES_TEXT: TextRules = {
  ...ODF_TEXT,
  skip: new Set([
    ...ODF_TEXT.skip!,
    'text:page-number',
    'text:date',
    'text:time',
    'presentation:date-time',
    'presentation:header',
    'presentation:footer',
  ]),
};

/** A slide's own text: its notes come apart. */
const SLIDE_TEXT: TextRules = { ...ODF_TEXT, skip: new Set([...ODF_TEXT.skip!, 'presentation:notes']) };

/** The parsed content.xml of an OpenDocument archive, and its title from meta.xml. */
async function openOdf(data: Uint8Array, limits: Parameters<FormatParser>[0]['limits'], kind: string) {
  const zip = ZipArchive.open(data, limits);
  const content = await zip.readText('content.xml');
  if (content === undefined) throw unreadable(`${kind} without content.xml`);
  return { zip, body: parseXml(content), title: await titleFrom(zip, 'meta.xml') };
}

/** The pictures (`draw:image`) among these nodes, as parts of the package; linked files left out. */
const imagesIn = (nodes: XmlNode[]) =>
  elementsOf(nodes, 'draw:image')
    .map((image) => image['xlink:href'] ?? '')
    .filter((href) => href && !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('/'))
    .map((href) => posix.normalize(href));

const linesOf = (nodes: XmlNode[], rules: TextRules) =>
  paragraphsOf(nodes, rules)
    .map((p) => tidy(p.text))
    .filter(Boolean);

/** ODT: the paragraphs and headings of content.xml, in order, and its pictures; the title from meta.xml. */
export const parseOdt: FormatParser = async ({ data, limits }) => {
  const { zip, body, title } = await openOdf(data, limits, 'ODT');
  const pictures = await readablePictures(
    (part) => zip.read(part),
    imagesIn(body).map((part) => ({ part })),
  );
  const paragraphs = paragraphsOf(body, ODF_TEXT)
    .map((p) => ({ heading: p.tag === 'text:h', text: tidy(p.text) }))
    .filter((p) => p.text);
  return {
    text: paragraphs.map((p) => p.text).join('\n\n'),
    sections: paragraphs.map((p) => (p.heading ? { title: p.text, text: p.text } : { text: p.text })),
    ...(pictures.length ? { pictures } : {}),
    metadata: { ...(title ? { title } : {}), paragraphs: paragraphs.length, bytes: data.byteLength },
  };
};

/**
 * ODP: the text of every slide (`draw:page`, in order: titles, outlines, text boxes, tables) and its
 * speaker notes after a `Notes:` line, one section per slide, and the pictures of each, as PPTX.
 */
export const parseOdp: FormatParser = async ({ data, limits }) => {
  const { zip, body, title } = await openOdf(data, limits, 'ODP');
  const pages = outermost(body, 'draw:page');
  const pictures = await readablePictures(
    (part) => zip.read(part),
    pages.flatMap((page, i) => imagesIn(childrenOf(page)).map((part) => ({ part, slide: i + 1 }))),
  );
  const sections: DocumentSection[] = pages.map((page, i) => {
    const lines = linesOf(childrenOf(page), SLIDE_TEXT);
    const notes = outermost(childrenOf(page), 'presentation:notes').flatMap((n) =>
      linesOf(childrenOf(n), NOTES_TEXT),
    );
    if (notes.length > 0) lines.push('Notes:', ...notes);
    return { title: `Slide ${i + 1}`, text: lines.join('\n') };
  });
  return {
    text: sections.map((s) => s.text).join('\n\n'),
    sections,
    ...(pictures.length ? { pictures } : {}),
    metadata: { ...(title ? { title } : {}), slides: sections.length, bytes: data.byteLength },
  };
};

/**
 * The most cells a spreadsheet's repeats (`number-rows-repeated`, `number-columns-repeated`) may add:
 * ODS writes a row of the same value a million times as one row, so a few bytes could otherwise ask
 * for gigabytes of text. Repeated empty rows and trailing empty cells cost nothing.
 */
export const MAX_REPEATED_CELLS = 1_000_000;

const count = (value: string | undefined) => Math.max(1, Math.floor(Number(value ?? 1)) || 1);

/** `PT09H30M00S` (a time of day) as `09:30` or `09:30:05`; another duration as written. */
function timeText(value: string): string {
  const match = /^PT(\d+)H(\d+)M(\d+(?:\.\d+)?)S$/.exec(value);
  if (!match || Number(match[1]) >= 24) return value;
  const seconds = Math.round(Number(match[3]));
  const pad = (n: number | string) => String(n).padStart(2, '0');
  return `${pad(match[1]!)}:${pad(match[2]!)}${seconds ? `:${pad(seconds)}` : ''}`;
}

/**
 * A cell as text: a date as `2024-03-01` (or with its time), as XLSX's; anything else as the
 * spreadsheet shows it (its `text:p`, so `12.5 %` and `€1,234.50` stay so), else its typed value.
 */
function odsCellText(cell: XmlNode): string {
  const a = attrsOf(cell);
  const date = a['office:date-value'];
  if (a['office:value-type'] === 'date' && date) {
    const at = new Date(date.includes('T') ? `${date}Z` : `${date}T00:00:00Z`);
    if (!Number.isNaN(at.getTime())) return cellText(at);
  }
  const shown = linesOf(childrenOf(cell), ODF_TEXT).join('\n');
  if (shown) return shown;
  if (a['office:value'] !== undefined) return cellText(Number(a['office:value']));
  if (a['office:boolean-value'] !== undefined) return a['office:boolean-value'];
  if (a['office:time-value'] !== undefined) return timeText(a['office:time-value']);
  return a['office:string-value'] ?? '';
}

/** A sheet's rows as cell texts, repeats expanded (within `budget`), empty rows and trailing cells left out. */
function sheetRows(table: XmlNode, budget: { cells: number }): string[][] {
  const spend = (cells: number) => {
    budget.cells -= cells;
    if (budget.cells < 0)
      throw unreadable(
        `the spreadsheet repeats cells more than ${MAX_REPEATED_CELLS.toLocaleString('en')} times`,
      );
  };
  const rows: string[][] = [];
  const readRow = (row: XmlNode) => {
    const values: string[] = [];
    let blanks = 0;
    for (const cell of childrenOf(row)) {
      const tag = tagOf(cell);
      if (tag !== 'table:table-cell' && tag !== 'table:covered-table-cell') continue;
      const repeat = count(attrsOf(cell)['table:number-columns-repeated']);
      const text = odsCellText(cell);
      if (text === '') {
        blanks += repeat;
        continue;
      }
      spend(blanks + repeat - 1);
      for (; blanks > 0; blanks--) values.push('');
      for (let i = 0; i < repeat; i++) values.push(text);
    }
    if (values.length === 0) return;
    const repeat = count(attrsOf(row)['table:number-rows-repeated']);
    spend((repeat - 1) * values.length);
    for (let i = 0; i < repeat; i++) rows.push(values);
  };
  const walk = (nodes: XmlNode[]) => {
    for (const node of nodes) {
      const tag = tagOf(node);
      if (tag === 'table:table-row') readRow(node);
      // Header rows, row groups and the rows around them hold rows; columns, shapes and forms do not.
      else if (
        tag === 'table:table-header-rows' ||
        tag === 'table:table-row-group' ||
        tag === 'table:table-rows'
      )
        walk(childrenOf(node));
    }
  };
  walk(childrenOf(table));
  return rows;
}

/**
 * ODS: every sheet (`table:table` of `office:spreadsheet`) in order, read as XLSX's are: the first row
 * the header, each data row a block of `header: value` lines, and the pictures each shows. Formulas are
 * read as their last values.
 */
export const parseOds: FormatParser = async ({ data, limits }) => {
  const { zip, body, title } = await openOdf(data, limits, 'ODS');
  const budget = { cells: MAX_REPEATED_CELLS };
  const tables = outermost(outermost(body, 'office:spreadsheet').flatMap(childrenOf), 'table:table');
  const read: SheetRows[] = tables.map((table, i) => ({
    name: attrsOf(table)['table:name'] || `Sheet ${i + 1}`,
    rows: sheetRows(table, budget),
  }));
  // The pictures a sheet shows (anchored to it or to its cells), as XLSX's.
  const pictures = await readablePictures(
    (part) => zip.read(part),
    tables.flatMap((table, i) => imagesIn(childrenOf(table)).map((part) => ({ part, sheet: read[i]!.name }))),
  );
  return {
    ...sheetsDocument(read, title, data.byteLength),
    ...(pictures.length ? { pictures } : {}),
  };
};
