/** A data table's cell longer than this makes it a layout table. */
const DATA_CELL_CHARS = 300;

/**
 * A table as text a reader and a search both take in, for every format that has tables (HTML and what
 * is read through it, PPTX, ODT, ODP). A data table (short cells on one line each): a line per row, its
 * cells between ` | `, as a markdown table reads; empty rows left out. A layout table (a cell holding
 * paragraphs, a long text or another table): its cells one after another as blocks.
 */
export function tableText(rows: readonly (readonly string[])[]): string {
  const cells = rows.map((r) => r.map((c) => c.trim()));
  const layout = cells.some((r) => r.some((c) => c.includes('\n') || c.length > DATA_CELL_CHARS));
  if (layout) return cells.flat().filter(Boolean).join('\n\n');
  return cells
    .filter((r) => r.some(Boolean))
    .map((r) => r.join(' | '))
    .join('\n');
}
