import type { AnswerSource } from '@atelier/schemas';

/** An answer's passages from one document. */
export interface SourceGroup {
  key: string;
  filename: string | null;
  /** The best score of its passages. */
  best: number;
  /** Its passages, best first. */
  passages: AnswerSource[];
}

/**
 * An answer's sources by document (a document often gives several passages), best first: the
 * documents by their best passage, the passages by score. A passage of no known document stands alone.
 */
export function groupSources(sources: readonly AnswerSource[]): SourceGroup[] {
  const groups = new Map<string, SourceGroup>();
  sources.forEach((source, i) => {
    const document = source.document_id ?? source.filename;
    const key = document === null ? `${source.collection_id}:#${i}` : `${source.collection_id}:${document}`;
    const group = groups.get(key);
    if (group) {
      group.passages.push(source);
      group.best = Math.max(group.best, source.score);
    } else {
      groups.set(key, { key, filename: source.filename, best: source.score, passages: [source] });
    }
  });
  const byScore = (a: { score: number }, b: { score: number }) => b.score - a.score;
  for (const group of groups.values()) group.passages.sort(byScore);
  return [...groups.values()].sort((a, b) => b.best - a.best);
}

/**
 * Where a passage sits in its document, as a reader finds it: the PDF page, the sheet, the slide, the
 * chapter, the email attachment, else the part.
 */
export type SourcePlace =
  | { kind: 'page'; value: number }
  | { kind: 'sheet'; value: string }
  | { kind: 'slide'; value: number }
  | { kind: 'chapter'; value: string }
  | { kind: 'attachment'; value: string }
  | { kind: 'part'; value: number };

export function sourcePlace(source: AnswerSource): SourcePlace | null {
  if (source.page !== undefined) return { kind: 'page', value: source.page };
  if (source.sheet !== undefined) return { kind: 'sheet', value: source.sheet };
  if (source.slide !== undefined) return { kind: 'slide', value: source.slide };
  if (source.chapter !== undefined) return { kind: 'chapter', value: source.chapter };
  if (source.attachment !== undefined) return { kind: 'attachment', value: source.attachment };
  return source.chunk_index !== null ? { kind: 'part', value: source.chunk_index + 1 } : null;
}
