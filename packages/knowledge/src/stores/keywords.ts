import { eng, fra } from 'stopword';

/** English and French stopwords (the product's languages), from the `stopword` package's lists. */
const STOPWORDS = new Set([...eng, ...fra]);
/** The most words of a question matched as keywords. */
const MAX_TERMS = 32;

/** What a full-text query asks for. */
export interface TextQueryTerms {
  /** "Quoted phrases": every one required, its words in order. */
  phrases: string[];
  /** -Excluded words: no chunk holding one is answered. */
  excluded: string[];
  /** The other words worth matching (`keywordTerms`): any of them, more of them ranking higher. */
  keywords: string[];
}

/**
 * Reads a full-text query: "quoted phrases" are required and -words excluded; the rest is read as a
 * question whose keywords a chunk need not all hold ("When was bookworm released?" should find the
 * chunk naming bookworm without the words when, was and released). A question with a quoted term
 * ("What does "fork" do?") requires the term, its other keywords ranking the chunks.
 */
export function parseTextQuery(query: string): TextQueryTerms {
  const phrases: string[] = [];
  const excluded: string[] = [];
  const rest = query
    .replace(/"([^"]*)"?/g, (_, phrase: string) => {
      if (phrase.trim()) phrases.push(phrase.trim());
      return ' ';
    })
    .replace(/(^|\s)-([\p{L}\p{N}][^\s]*)/gu, (_, space: string, word: string) => {
      excluded.push(word);
      return space;
    });
  return { phrases, excluded, keywords: keywordTerms(rest) };
}

/**
 * The words of a question worth matching as keywords: lower-cased, split at white space and
 * apostrophes (`l'API` gives `l` and `api`), punctuation trimmed from their ends (`node.js` stays
 * whole), English and French stopwords left out (all words when every one is a stopword), at most 32.
 */
export function keywordTerms(text: string): string[] {
  const words = [
    ...new Set(
      text
        .toLowerCase()
        .split(/[\s'’]+/u)
        .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
        .filter(Boolean),
    ),
  ];
  const kept = words.filter((word) => !STOPWORDS.has(word));
  return (kept.length > 0 ? kept : words).slice(0, MAX_TERMS);
}
