import type { RagDocument } from '@atelier/schemas';

/** Which documents the list shows: all, or those of one state (waiting counts queued and processing). */
export type DocumentState = 'all' | 'waiting' | 'ready' | 'failed';
export const DOCUMENT_STATES: readonly DocumentState[] = ['all', 'waiting', 'ready', 'failed'];

/** A collection's documents list offers to find and filter from this many documents on. */
export const FILTER_FROM = 8;
/** Rows drawn at first, and added by "show more": a collection of thousands stays quick to draw. */
export const ROWS_STEP = 100;

const stateOf = (d: RagDocument): Exclude<DocumentState, 'all'> =>
  d.status === 'queued' || d.status === 'processing' ? 'waiting' : d.status;

/** How many documents each state holds. */
export function countByState(documents: readonly RagDocument[]): Record<DocumentState, number> {
  const counts = { all: documents.length, waiting: 0, ready: 0, failed: 0 };
  for (const d of documents) counts[stateOf(d)] += 1;
  return counts;
}

/**
 * The documents of a state whose name (or web address, or one of its fields' values: "HR") holds the
 * text, whatever its case and accents.
 */
export function filterDocuments(
  documents: readonly RagDocument[],
  filter: { text: string; state: DocumentState },
): RagDocument[] {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
  const wanted = fold(filter.text.trim());
  return documents.filter(
    (d) =>
      (filter.state === 'all' || stateOf(d) === filter.state) &&
      (wanted === '' ||
        fold(`${d.filename} ${d.source_url ?? ''} ${Object.values(d.metadata).join(' ')}`).includes(wanted)),
  );
}
