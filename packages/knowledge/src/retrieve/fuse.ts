import type { ScoredChunk } from '../stores/vector-store';

/** The usual constant of reciprocal rank fusion: ranks far down still count a little. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion of ranked lists (best first): each chunk scores the sum of 1 / (k + rank) over
 * the lists it is in, normalised so that first in every list is 1. Ties keep the first list's order.
 */
export function reciprocalRankFusion<T extends Pick<ScoredChunk, 'id' | 'score'>>(
  lists: readonly (readonly T[])[],
  k = RRF_K,
): T[] {
  const best = lists.length / (k + 1);
  const fused = new Map<string, { chunk: T; score: number; order: number }>();
  let order = 0;
  for (const list of lists) {
    list.forEach((chunk, rank) => {
      const entry = fused.get(chunk.id) ?? { chunk, score: 0, order: order++ };
      entry.score += 1 / (k + rank + 1);
      fused.set(chunk.id, entry);
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map((e) => ({ ...e.chunk, score: e.score / best }));
}
