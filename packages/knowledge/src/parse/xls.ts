import type * as SheetJs from '@e965/xlsx';
import { unreadable } from './errors';
import { cellText, sheetsDocument } from './spreadsheet';
import type { FormatParser } from './types';

/** SheetJS, loaded by the first workbook a parser thread reads (it takes about 30 MB and 0.3 s). */
let sheetJs: Promise<typeof SheetJs> | undefined;
const loadSheetJs = () => (sheetJs ??= import('@e965/xlsx'));

/** The workbook as SheetJS reads it: values, not formulas, styles or macros. */
function workbookOf({ read }: typeof SheetJs, data: Uint8Array): SheetJs.WorkBook {
  try {
    return read(data, {
      type: 'array',
      cellDates: true,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      bookVBA: false,
      dense: true,
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/password|encrypt/i.test(message)) {
      throw unreadable('a password-protected Excel workbook cannot be read; save it without a password', err);
    }
    throw unreadable(`not a readable Excel workbook (${message})`, err);
  }
}

/**
 * Excel 97-2003 workbooks (.xls) with SheetJS, which also reads what web applications often export
 * under that name (an HTML table, an Excel 2003 XML spreadsheet): every sheet in workbook order, read
 * as XLSX sheets are (`sheetsDocument`). Formulas are read as the values the spreadsheet last computed;
 * dates as UTC wall-clock times, as in XLSX.
 */
export const parseXls: FormatParser = async ({ data }) => {
  const sheetJs = await loadSheetJs();
  const workbook = workbookOf(sheetJs, data);
  const { utils } = sheetJs;
  const sheets = workbook.SheetNames.map((name) => {
    const sheet = workbook.Sheets[name];
    const rows = sheet
      ? utils.sheet_to_json<unknown[]>(sheet, {
          header: 1,
          raw: true,
          defval: null,
          blankrows: false,
          UTC: true,
        })
      : [];
    return { name, rows: rows.map((row) => Array.from(row, cellText)) };
  });
  const title = workbook.Props?.Title?.trim();
  return sheetsDocument(sheets, title || undefined, data.byteLength);
};
