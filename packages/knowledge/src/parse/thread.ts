import { asDocumentError, type DocumentErrorCode } from './errors';
import { parseSource, renderSource, type ParseTask, type RenderTask } from './parse-source';
import type { PageImage } from './pdf-render';
import type { ParsedDocument } from './types';

/** A parser thread's work: parse a document, or draw PDF pages (or an image) as JPEGs. */
export type ThreadTask = (ParseTask & { render?: never }) | { render: RenderTask };

/** A parser thread's answer: the document or the images, or the `DocumentError` it failed with, as plain data. */
export type ThreadAnswer =
  | { ok: true; document: ParsedDocument }
  | { ok: true; images: PageImage[] }
  | { ok: false; code: DocumentErrorCode; detail: string };

/**
 * The task a parser thread runs (loaded through thread.mjs). Errors go back as data: a thrown error
 * crosses threads as a bare `Error`, and its code and status would be lost on the way.
 */
export default async function parseInThread(task: ThreadTask): Promise<ThreadAnswer> {
  try {
    if (task.render) return { ok: true, images: await renderSource(task.render) };
    return { ok: true, document: await parseSource(task) };
  } catch (err) {
    const error = asDocumentError(err, task.render ? 'cannot draw the pages' : 'cannot parse the document');
    return { ok: false, code: error.code, detail: error.detail };
  }
}
