import { asDocumentError, type DocumentErrorCode } from './errors';
import { parseSource, type ParseTask } from './parse-source';
import type { ParsedDocument } from './types';

/** A parser thread's answer: the document, or the `DocumentError` it failed with, as plain data. */
export type ThreadAnswer =
  { ok: true; document: ParsedDocument } | { ok: false; code: DocumentErrorCode; detail: string };

/**
 * The task a parser thread runs (loaded through thread.mjs). Errors go back as data: a thrown error
 * crosses threads as a bare `Error`, and its code and status would be lost on the way.
 */
export default async function parseInThread(task: ParseTask): Promise<ThreadAnswer> {
  try {
    return { ok: true, document: await parseSource(task) };
  } catch (err) {
    const error = asDocumentError(err, 'cannot parse the document');
    return { ok: false, code: error.code, detail: error.detail };
  }
}
