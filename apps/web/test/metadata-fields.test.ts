import { describe, expect, it } from 'vitest';
import { filterDocuments } from '../src/features/knowledge/document-filter';
import { fieldProblems, fieldRows, fieldValue, metadataOf } from '../src/features/knowledge/metadata-fields';
import { ragDocument } from './rag-documents';

describe("a document's fields in the editor", () => {
  it('keeps numbers written as numbers and true/false as such; a zip code or a phrase stays text', () => {
    expect(fieldValue(' 2024 ')).toBe(2024);
    expect(fieldValue('-1.5')).toBe(-1.5);
    expect(fieldValue('true')).toBe(true);
    expect(fieldValue('false')).toBe(false);
    expect(fieldValue('01234')).toBe('01234');
    expect(fieldValue('1e3')).toBe('1e3');
    expect(fieldValue('True')).toBe('True');
    expect(fieldValue(' Human resources ')).toBe('Human resources');
  });

  it('answers each row as the API would refuse it, and ignores rows left empty', () => {
    const problems = fieldProblems([
      { name: 'department', value: 'HR' },
      { name: '', value: '' },
      { name: '', value: 'x' },
      { name: 'a.b', value: 'x' },
      { name: 'Filename', value: 'x' },
      { name: 'department', value: 'Sales' },
      { name: 'year', value: '  ' },
    ]);
    expect(problems).toEqual([
      null,
      null,
      { name: 'nameMissing' },
      { name: 'nameInvalid' },
      { name: 'nameReserved' },
      { name: 'nameTwice' },
      { value: 'valueMissing' },
    ]);
  });

  it('turns rows into metadata and back', () => {
    const metadata = metadataOf([
      { name: ' team ', value: 'ops' },
      { name: '', value: '' },
      { name: 'year', value: '2025' },
    ]);
    expect(metadata).toEqual({ team: 'ops', year: 2025 });
    expect(fieldRows(metadata)).toEqual([
      { name: 'team', value: 'ops' },
      { name: 'year', value: '2025' },
    ]);
  });

  it("finds documents by a field's value in the list", () => {
    const documents = [
      ragDocument({ id: 'a', filename: 'leave.md', metadata: { department: 'Ressources humaines' } }),
      ragDocument({ id: 'b', filename: 'pricing.md', metadata: { department: 'Sales' } }),
    ];
    expect(filterDocuments(documents, { text: 'humaines', state: 'all' }).map((d) => d.id)).toEqual(['a']);
    expect(filterDocuments(documents, { text: 'sales', state: 'all' }).map((d) => d.id)).toEqual(['b']);
  });
});
