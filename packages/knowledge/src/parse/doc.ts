import WordExtractor from 'word-extractor';
import { tableText } from './table-text';
import type { FormatParser } from './types';

/**
 * A Word 97-2003 text as blocks: a paragraph per line; a table's rows (word-extractor ends each cell,
 * the last one included, with a tab) gathered and read by rows as every other format's tables are.
 */
function blocksOf(text: string): string[] {
  const blocks: string[] = [];
  let rows: string[][] = [];
  const endTable = () => {
    if (rows.length > 0) blocks.push(tableText(rows));
    rows = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.endsWith('\t')) {
      rows.push(line.slice(0, -1).split('\t'));
      continue;
    }
    endTable();
    const paragraph = line.replace(/[ \t\u00a0]+/g, ' ').trim();
    if (paragraph) blocks.push(paragraph);
  }
  endTable();
  return blocks.filter(Boolean);
}

/**
 * DOC (Word 97-2003) with word-extractor: the body's paragraphs and tables, then the text boxes,
 * footnotes and endnotes (a note where the reader finds it: after the text). Headers and footers are
 * left out, as for DOCX: they repeat on every page and say little.
 */
export const parseDoc: FormatParser = async ({ data }) => {
  const document = await new WordExtractor().extract(
    Buffer.from(data.buffer, data.byteOffset, data.byteLength),
  );
  const body = blocksOf(document.getBody());
  const notes = [
    document.getTextboxes({ includeHeadersAndFooters: false }),
    document.getFootnotes(),
    document.getEndnotes(),
  ].flatMap(blocksOf);
  const paragraphs = [...body, ...notes];
  return {
    text: paragraphs.join('\n\n'),
    sections: paragraphs.map((text) => ({ text })),
    metadata: { paragraphs: body.length, bytes: data.byteLength },
  };
};
