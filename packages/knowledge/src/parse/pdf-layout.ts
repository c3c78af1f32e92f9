/**
 * A PDF page's text as a reader sees it, from pdf.js's positioned text items: its lines, a blank line
 * where a paragraph ends (a wider gap than the line spacing, a change of font size, a jump up to a new
 * column), a word hyphenated across two lines joined again; and the running headers and footers that
 * repeat on most pages (a title, "Page 3 of 12", a date) dropped, so that they are not in every chunk.
 */

/** One text item of pdf.js's `getTextContent()` (the fields used here). */
export interface PdfTextItem {
  str: string;
  /** [a, b, c, d, x, y]: y grows upwards, from the page's bottom edge. */
  transform: number[];
  height: number;
  hasEOL: boolean;
}

export interface PdfLine {
  text: string;
  /** The baseline of the line's first item. */
  y: number;
  /** Its tallest item (about its font size); 0 when pdf.js gives none. */
  size: number;
}

/** A gap between two baselines wider than this many font sizes ends a paragraph (line spacing is ~1.2). */
const PARAGRAPH_GAP = 1.6;
/** Font sizes differing by more than this share (a heading, then its text) end a paragraph. */
const SIZE_CHANGE = 0.15;
/** The top and bottom share of a page where running headers and footers sit. */
const MARGIN = 0.12;
/** Running headers and footers are among a page's two highest and two lowest lines. */
const EDGE_LINES = 2;
/** A margin line is a running header or footer when it repeats on this share of the pages, ... */
const RUNNING_SHARE = 0.6;
/** ... and on at least this many pages. */
const RUNNING_MIN_PAGES = 3;

/** The page's lines in pdf.js's order (`hasEOL` ends a line); blank lines are dropped. */
export function pdfLines(items: readonly PdfTextItem[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let text = '';
  let y: number | undefined;
  let size = 0;
  const end = () => {
    const trimmed = text.replace(/[ \t]+/g, ' ').trim();
    if (trimmed) lines.push({ text: trimmed, y: y ?? 0, size });
    text = '';
    y = undefined;
    size = 0;
  };
  for (const item of items) {
    if (item.str) {
      if (y === undefined && item.str.trim()) y = item.transform[5] ?? 0;
      text += item.str;
      size = Math.max(size, Math.abs(item.height) || 0);
    }
    if (item.hasEOL) end();
  }
  end();
  return lines;
}

/** Whether `next` starts a new paragraph after `prev`. */
function breaksParagraph(prev: PdfLine, next: PdfLine): boolean {
  const size = Math.max(prev.size, next.size);
  if (size <= 0) return false;
  const gap = prev.y - next.y;
  if (gap <= 0) return true;
  if (gap > PARAGRAPH_GAP * size) return true;
  return Math.abs(prev.size - next.size) > SIZE_CHANGE * size;
}

/** A word cut by a hyphen at a line's end (`infor-` / `mation`): lower-case letters on both sides. */
const CUT_WORD = /\p{Ll}-$/u;
const CONTINUES = /^\p{Ll}/u;

/** Lines as text: a newline between lines, a blank line between paragraphs, cut words joined. */
export function layoutText(lines: readonly PdfLine[]): string {
  let text = '';
  lines.forEach((line, i) => {
    const prev = lines[i - 1];
    if (!prev) text = line.text;
    else if (breaksParagraph(prev, line)) text += `\n\n${line.text}`;
    else if (CUT_WORD.test(prev.text) && CONTINUES.test(line.text)) {
      // The rest of the word moves up to its start; the line goes on below.
      const [rest = '', ...after] = line.text.split(' ');
      text = text.slice(0, -1) + rest + (after.length ? `\n${after.join(' ')}` : '');
    } else text += `\n${line.text}`;
  });
  return text;
}

/** A page number written in a margin line is found among its first few numbers. */
const NUMBERS_TRIED = 4;

/**
 * What a margin line on page `page` (1-based) may be as a running header or footer: its text as
 * written, and its text with one of its numbers written as its offset from the page number ("Page 3 of
 * 12" on page 3 is "page {+0} of 12" as it is on every page; "Section 8", then "Section 16" two pages
 * on, is not).
 */
function runningKeys(text: string, page: number): string[] {
  const line = text.toLowerCase();
  const keys = [line];
  const numbers = [...line.matchAll(/\d+/g)].slice(0, NUMBERS_TRIED);
  for (const m of numbers) {
    const offset = Number(m[0]) - page;
    keys.push(`${line.slice(0, m.index)}{${offset}}${line.slice(m.index + m[0].length)}`);
  }
  return keys;
}

/**
 * The pages' lines without their running headers and footers: edge lines (`edgeLines`) that are edge
 * lines of most pages (`RUNNING_SHARE`, at least `RUNNING_MIN_PAGES`), as written or with the page
 * number counting along (`runningKeys`). A document of fewer pages keeps every line.
 */
export function dropRunningLines(pages: readonly { lines: PdfLine[]; height: number }[]): PdfLine[][] {
  const edges = pages.map((page) => edgeLines(page.lines, page.height));
  const seen = new Map<string, number>();
  edges.forEach((lines, i) => {
    for (const key of new Set([...lines].flatMap((l) => runningKeys(l.text, i + 1))))
      seen.set(key, (seen.get(key) ?? 0) + 1);
  });
  const needed = Math.max(RUNNING_MIN_PAGES, Math.ceil(RUNNING_SHARE * pages.length));
  const running = new Set([...seen].filter(([, n]) => n >= needed).map(([key]) => key));
  if (running.size === 0) return pages.map((page) => page.lines);
  return pages.map((page, i) =>
    page.lines.filter(
      (l) => !(edges[i]!.has(l) && runningKeys(l.text, i + 1).some((key) => running.has(key))),
    ),
  );
}

/**
 * The lines a running header or footer may be: on the `EDGE_LINES` highest or lowest baselines of the
 * page, within its top or bottom `MARGIN` (the body's first and last lines are there too, but they
 * rarely read the same on most pages).
 */
function edgeLines(lines: readonly PdfLine[], height: number): Set<PdfLine> {
  if (height <= 0) return new Set();
  const ys = [...new Set(lines.map((l) => l.y))].sort((a, b) => b - a);
  const top = new Set(ys.slice(0, EDGE_LINES).filter((y) => y > height * (1 - MARGIN)));
  const bottom = new Set(ys.slice(-EDGE_LINES).filter((y) => y < height * MARGIN));
  return new Set(lines.filter((l) => top.has(l.y) || bottom.has(l.y)));
}
