/** Tables (CSV rows, spreadsheet sheets) as text: each data row a block of `column: value` lines. */

/** The column names of a header row; a blank one is `column N`. */
export const columnNames = (header: readonly string[]): string[] =>
  header.map((name, i) => name.trim() || `column ${i + 1}`);

/** One data row as `column: value` lines: blank values left out, line breaks in a value made spaces. */
export function rowText(columns: readonly string[], values: readonly string[]): string {
  return values
    .map((value, i) => [columns[i] ?? `column ${i + 1}`, value.trim()] as const)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}: ${value.replace(/\r?\n/g, ' ')}`)
    .join('\n');
}
