/** Earlier questions a follow-up is searched with, and the characters kept of each. */
const EARLIER_QUESTIONS = 2;
const EARLIER_CHARS = 500;

/**
 * What a question in a conversation is searched with: itself and, after earlier questions, itself
 * after the last two of them. A follow-up ("and in 2023?", "within how many days?") names nothing of
 * its subject alone; searched with the questions before it, it finds their passages. No model call is
 * made to rewrite it (that would delay every answer); the question alone is still searched, so a change
 * of subject finds its own. The answers are fused by reciprocal rank (`reciprocalRankFusion`), as
 * RAG-Fusion fuses its rewritten queries': each search's best passages come first.
 */
export function searchesFor(query: string, earlier: readonly string[] = []): string[] {
  const before = earlier
    .map((q) => q.trim().slice(0, EARLIER_CHARS))
    .filter((q) => q !== '')
    .slice(-EARLIER_QUESTIONS);
  return before.length === 0 ? [query] : [query, [...before, query].join('\n')];
}
