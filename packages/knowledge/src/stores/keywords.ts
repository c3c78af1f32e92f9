import { eng, fra } from 'stopword';

/** English and French stopwords (the product's languages), from the `stopword` package's lists. */
const STOPWORDS = new Set([...eng, ...fra]);
/** The most words of a question matched as keywords. */
const MAX_TERMS = 32;

/**
 * Whether a full-text query uses search syntax (a "quoted phrase" or a -excluded word): then it is
 * taken as written, every word required, where the store supports that syntax.
 */
export function usesSearchSyntax(query: string): boolean {
  return /"|(?:^|\s)-[\p{L}\p{N}]/u.test(query);
}

/**
 * The words of a question worth matching as keywords: lower-cased, split at white space and
 * apostrophes (`l'API` gives `l` and `api`), punctuation trimmed from their ends (`node.js` stays
 * whole), English and French stopwords left out (all words when every one is a stopword), at most 32.
 * A chunk need not hold them all: "When was bookworm released?" should find the chunk that names
 * bookworm without the words when, was and released.
 */
export function keywordTerms(query: string): string[] {
  const words = [
    ...new Set(
      query
        .toLowerCase()
        .split(/[\s'’]+/u)
        .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
        .filter(Boolean),
    ),
  ];
  const kept = words.filter((word) => !STOPWORDS.has(word));
  return (kept.length > 0 ? kept : words).slice(0, MAX_TERMS);
}
