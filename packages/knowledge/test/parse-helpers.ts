import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { DocumentError, parseDocument, type ParseDocumentInput } from '../src/index';

export const SENTENCE = 'The quick brown fox jumps over the lazy dog.';
export const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;
export const bytes = (name: string) => new Uint8Array(readFileSync(fixture(name)));

/** The DocumentError a parse fails with (fails the test when it resolves or throws anything else). */
export async function refusal(input: ParseDocumentInput): Promise<DocumentError> {
  const err = await parseDocument(input).then(
    (doc) => new Error(`parsed as ${doc.type}`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DocumentError);
  return err as DocumentError;
}
