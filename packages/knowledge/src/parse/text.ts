import { parse as parseCsvStream } from 'csv-parse';
import { unreadable } from './errors';
import { htmlElementText, htmlToText } from './html';
import type { DocumentSection, FormatParser } from './types';
import { columnNames, rowText } from './rows';

/** Decodes text: UTF-8 (BOM dropped), UTF-16 when it has a BOM, Windows-1252 when it is not valid UTF-8. */
export function decodeText(data: Uint8Array): string {
  if (data[0] === 0xff && data[1] === 0xfe) return new TextDecoder('utf-16le').decode(data);
  if (data[0] === 0xfe && data[1] === 0xff) return new TextDecoder('utf-16be').decode(data);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
}

const normalizeNewlines = (text: string) => text.replace(/\r\n?/g, '\n');

export const parseTxt: FormatParser = async ({ data }) => ({
  text: normalizeNewlines(decodeText(data)).trim(),
  metadata: { bytes: data.byteLength },
});

/** Markdown is kept as written (headings help chunking); sections split at ATX headings outside code fences. */
export const parseMarkdown: FormatParser = async ({ data }) => {
  const text = normalizeNewlines(decodeText(data)).trim();
  const sections: DocumentSection[] = [];
  let current: DocumentSection = { text: '' };
  let fence = false;
  for (const line of text.split('\n')) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fence = !fence;
    const heading = fence ? null : /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      if (current.text.trim() || current.title) sections.push({ ...current, text: current.text.trim() });
      current = { title: heading[1] ?? '', text: line + '\n' };
    } else current.text += line + '\n';
  }
  if (current.text.trim() || current.title) sections.push({ ...current, text: current.text.trim() });
  const title = sections.find((s) => s.title)?.title;
  return { text, sections, metadata: { ...(title ? { title } : {}), bytes: data.byteLength } };
};

/** The delimiter of the first line: the most frequent of `,` `;` tab `|` outside quotes. */
function guessDelimiter(text: string): string {
  const firstLine = text.slice(0, 4096).split('\n', 1)[0] ?? '';
  const unquoted = firstLine.replace(/"[^"]*"/g, '');
  let best = ',';
  let bestCount = 0;
  for (const d of [',', ';', '\t', '|']) {
    const count = unquoted.split(d).length - 1;
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}

/**
 * CSV with csv-parse (streaming, so a large file yields to the event loop between batches): the first
 * row is the header and every data row becomes `header: value` lines; one section per row.
 */
export const parseCsv: FormatParser = async ({ data }) => {
  const text = decodeText(data);
  let columns: string[] = [];
  const sections: DocumentSection[] = [];
  const parser = parseCsvStream(text, {
    delimiter: guessDelimiter(text),
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
  });
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!columns.length) {
        columns = columnNames(record);
        continue;
      }
      sections.push({ title: `Row ${sections.length + 1}`, text: rowText(columns, record) });
    }
  } catch (err) {
    throw unreadable(`not a readable CSV (${err instanceof Error ? err.message : String(err)})`, err);
  }
  return {
    text: sections.map((s) => s.text).join('\n\n'),
    sections,
    metadata: { rows: sections.length, columns, bytes: data.byteLength },
  };
};

/** JSON Lines: every non-empty line a JSON value (at least two), else undefined. */
function jsonLines(text: string): unknown[] | undefined {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length < 2) return undefined;
  const values: unknown[] = [];
  for (const line of lines) {
    try {
      values.push(JSON.parse(line));
    } catch {
      return undefined;
    }
  }
  return values;
}

/**
 * JSON flattened to `path: value` lines (`items[0].text: …`), so every value is searchable text. JSON
 * Lines (one value per line) reads as an array of them, a blank line between records.
 */
export const parseJson: FormatParser = async ({ data }) => {
  const text = decodeText(data);
  let value: unknown;
  let records: unknown[] | undefined;
  try {
    value = JSON.parse(text);
  } catch (err) {
    records = jsonLines(normalizeNewlines(text));
    if (!records)
      throw unreadable(`not valid JSON (${err instanceof Error ? err.message : String(err)})`, err);
  }
  const flatten = (root: unknown, prefix: string): string => {
    const lines: string[] = [];
    const walk = (v: unknown, path: string) => {
      if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${path}[${i}]`));
      else if (v !== null && typeof v === 'object') {
        for (const [key, child] of Object.entries(v)) walk(child, path ? `${path}.${key}` : key);
      } else lines.push(path ? `${path}: ${String(v)}` : String(v));
    };
    walk(root, prefix);
    return lines.join('\n');
  };
  if (records) {
    return {
      text: records.map((record, i) => flatten(record, `[${i}]`)).join('\n\n'),
      metadata: { rows: records.length, bytes: data.byteLength },
    };
  }
  const title =
    value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof (value as { title?: unknown }).title === 'string'
      ? (value as { title: string }).title
      : undefined;
  return { text: flatten(value, ''), metadata: { ...(title ? { title } : {}), bytes: data.byteLength } };
};

/** HTML documents: readable text (html.ts), the title from `<title>`. */
export const parseHtml: FormatParser = async ({ data }) => {
  const html = decodeText(data);
  const text = htmlToText(html);
  const title = htmlElementText(html, /<title[^>]*>([\s\S]*?)<\/title>/i);
  return { text, metadata: { ...(title ? { title } : {}), bytes: data.byteLength } };
};
