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
