import type { DocumentMetadata } from '@atelier/schemas';
import { KNOWLEDGE_LIMITS, RESERVED_METADATA_KEYS } from '@atelier/schemas/constants';

/** One row of the fields editor, as typed. */
export interface FieldRow {
  name: string;
  value: string;
}

export type FieldValue = string | number | boolean;

/**
 * A typed value as the field keeps it: a number written as numbers are ("2024", "-1.5", not "01234",
 * a zip code) and true/false stay numbers and booleans, so a filter compares them as such; the rest is text.
 */
export function fieldValue(text: string): FieldValue {
  const value = text.trim();
  if (value === 'true' || value === 'false') return value === 'true';
  const number = Number(value);
  if (value !== '' && Number.isFinite(number) && String(number) === value) return number;
  return value;
}

/** A field's value as the editor and the list show it. */
export const fieldText = (value: FieldValue) => String(value);

export const fieldRows = (metadata: DocumentMetadata): FieldRow[] =>
  Object.entries(metadata).map(([name, value]) => ({ name, value: fieldText(value) }));

export type FieldProblem =
  'nameMissing' | 'nameInvalid' | 'nameReserved' | 'nameTwice' | 'nameLong' | 'valueMissing' | 'valueLong';

const reserved = new Set(RESERVED_METADATA_KEYS);
const NAME = /^[\p{L}\p{N}_][\p{L}\p{N}_ -]*$/u;

/** What is wrong with each row (rows left wholly empty are dropped, never wrong), as the API would say it. */
export function fieldProblems(
  rows: readonly FieldRow[],
): ({ name?: FieldProblem; value?: FieldProblem } | null)[] {
  const names = rows.map((r) => r.name.trim());
  return rows.map((row, i) => {
    const name = names[i]!;
    const value = row.value.trim();
    if (name === '' && value === '') return null;
    const problems: { name?: FieldProblem; value?: FieldProblem } = {};
    if (name === '') problems.name = 'nameMissing';
    else if (name.length > KNOWLEDGE_LIMITS.maxMetadataKeyChars) problems.name = 'nameLong';
    else if (!NAME.test(name)) problems.name = 'nameInvalid';
    else if (reserved.has(name.toLowerCase())) problems.name = 'nameReserved';
    else if (names.indexOf(name) !== i) problems.name = 'nameTwice';
    if (value === '') problems.value = 'valueMissing';
    else if (value.length > KNOWLEDGE_LIMITS.maxMetadataValueChars) problems.value = 'valueLong';
    return problems.name || problems.value ? problems : null;
  });
}

/** The rows as the document's metadata (empty rows dropped). */
export function metadataOf(rows: readonly FieldRow[]): DocumentMetadata {
  const metadata: DocumentMetadata = {};
  for (const row of rows) {
    if (row.name.trim() === '' && row.value.trim() === '') continue;
    metadata[row.name.trim()] = fieldValue(row.value);
  }
  return metadata;
}
