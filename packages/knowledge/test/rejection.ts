import { expect } from 'vitest';
import { KnowledgeError } from '../src/stores/vector-store';

/** The KnowledgeError a promise rejects with (fails the test when it resolves or throws anything else). */
export async function rejection(promise: Promise<unknown>): Promise<KnowledgeError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KnowledgeError);
  return error as KnowledgeError;
}
