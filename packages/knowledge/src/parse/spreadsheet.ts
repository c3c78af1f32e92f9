import readXlsxFile from 'read-excel-file/universal';
import { unreadable } from './errors';
import { checkedCopy, titleFrom } from './office';
import { columnNames, rowText } from './rows';
import { drawnPictures, readablePictures, relationshipsOf } from './pictures';
import type { DocumentPicture, DocumentSection, FormatParser, ParsedDocument } from './types';
import { elementsOf, parseXml } from './xml';
import { ZipArchive } from './zip';

const pad = (n: number) => String(n).padStart(2, '0');

/** A date cell (UTC wall-clock time) as `2024-03-01`, `2024-03-01 14:30`, or `14:30` for a time alone. */
function dateText(date: Date): string {
  // A date is a number of days: 09:30 may come back as 09:29:59.999.
  const at = new Date(Math.round(date.getTime() / 1000) * 1000);
  const day = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
  const seconds = at.getUTCSeconds();
  const time = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}${seconds ? `:${pad(seconds)}` : ''}`;
  // Day 0 of the spreadsheet's calendar is 1899-12-30 (or 31): a time with no date.
  if (at.getUTCFullYear() < 1900) return time;
  return time === '00:00' ? day : `${day} ${time}`;
}

/** A cell as text: numbers to the 15 significant digits a spreadsheet shows (0.1 + 0.2 is 0.3). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(Number(value.toPrecision(15)));
  if (value instanceof Date) return dateText(value);
  return String(value);
}

/** A sheet as read: its name and its rows of cell texts. */
export interface SheetRows {
  name: string;
  rows: string[][];
}

/**
 * Sheets as a document: every sheet that holds data, in order, its first row the header and each data
 * row a block of `header: value` lines, as CSV. A sheet of one row is that row's values.
 */
export function sheetsDocument(
  read: readonly SheetRows[],
  title: string | undefined,
  bytes: number,
): Omit<ParsedDocument, 'type'> {
  const sheets: { name: string; text: string }[] = [];
  const sections: DocumentSection[] = [];
  let rows = 0;
  for (const { name, rows: table } of read) {
    const lines = table.filter((row) => row.some((value) => value.trim() !== ''));
    const [header, ...records] = lines;
    if (!header) continue;
    const columns = columnNames(header);
    const blocks = records.length
      ? records.map((record) => rowText(columns, record))
      : [header.filter((value) => value.trim() !== '').join(' | ')];
    blocks.forEach((text, i) => sections.push({ title: `${name}, row ${i + 1}`, text }));
    rows += records.length;
    sheets.push({ name, text: blocks.join('\n\n') });
  }
  return {
    text: sheets.map((s) => `${s.name}\n\n${s.text}`).join('\n\n'),
    sheets,
    sections,
    metadata: { ...(title ? { title } : {}), sheets: sheets.length, rows, bytes },
  };
}

const DRAWING = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing';

/**
 * The pictures a workbook's sheets show (a screenshot pasted into a test report), in workbook order:
 * each sheet's drawing (its `drawing` relationship), then that drawing's `a:blip` pictures.
 */
async function sheetPictures(zip: ZipArchive): Promise<DocumentPicture[]> {
  const workbook = (await zip.readText('xl/workbook.xml')) ?? '';
  const sheetsRels = await relationshipsOf(zip, 'xl/workbook.xml');
  const shown: { part: string; sheet: string }[] = [];
  for (const sheet of elementsOf(parseXml(workbook), 'sheet')) {
    const part = sheet['r:id'] ? sheetsRels.get(sheet['r:id'])?.part : undefined;
    if (!part || !sheet.name) continue;
    for (const drawing of (await relationshipsOf(zip, part)).values()) {
      if (drawing.type !== DRAWING) continue;
      const xml = (await zip.readText(drawing.part)) ?? '';
      const rels = await relationshipsOf(zip, drawing.part);
      shown.push(...drawnPictures(xml, rels).map((picture) => ({ part: picture, sheet: sheet.name! })));
    }
  }
  return readablePictures((picture) => zip.read(picture), shown);
}

/**
 * XLSX with read-excel-file (handed the archive's checked copy): every sheet in workbook order, as
 * `sheetsDocument` reads them, and the pictures its sheets show. Formulas are read as the values the
 * spreadsheet last computed.
 */
export const parseXlsx: FormatParser = async ({ data, limits }) => {
  const zip = ZipArchive.open(data, limits);
  if (!zip.has('xl/workbook.xml')) throw unreadable('XLSX without xl/workbook.xml');
  const workbook = await readXlsxFile(checkedCopy(await zip.readAll()));
  const read = workbook.map(({ sheet, data: table }) => ({
    name: sheet,
    rows: table.map((row) => row.map(cellText)),
  }));
  const pictures = await sheetPictures(zip);
  return {
    ...sheetsDocument(read, await titleFrom(zip, 'docProps/core.xml'), data.byteLength),
    ...(pictures.length ? { pictures } : {}),
  };
};
