import { compileUserRegex, matchStarts } from '../user-regex';

export interface RecursiveSplitOptions {
  chunkSize: number;
  chunkOverlap: number;
  /** Tried in order: the first one found in the text splits it; pieces still too long try the next ones. */
  separators: readonly string[];
  isSeparatorRegex: boolean;
  /** Length of a piece of text (characters by default, tokens when asked). */
  length: (text: string) => number;
}

/** A separator as the splitter uses it: where it occurs and whether it occurs at all. */
interface Separator {
  /** Where pieces start: each place the separator begins (the separator stays with what follows). */
  cuts(text: string): Iterable<number>;
  foundIn(text: string): boolean;
}

/** A plain separator: every place it begins, overlapping ones included (as a lookahead split does). */
const literal = (s: string): Separator => ({
  *cuts(text) {
    for (let at = text.indexOf(s, 1); at !== -1; at = text.indexOf(s, at + 1)) yield at;
  },
  foundIn: (text) => text.includes(s),
});

/** A user pattern, on the linear-time engine: where its matches begin, leftmost first, not overlapping. */
const pattern = (s: string): Separator => {
  const re = compileUserRegex(s);
  return { cuts: (text) => matchStarts(re, text), foundIn: (text) => re.test(text) };
};

/** Splits keeping each separator at the start of the piece that follows it. */
function splitKeeping(text: string, separator: string, sep: Separator): string[] {
  if (separator === '') return [...text];
  const pieces: string[] = [];
  let last = 0;
  for (const at of sep.cuts(text)) {
    if (at <= last) continue;
    pieces.push(text.slice(last, at));
    last = at;
  }
  pieces.push(text.slice(last));
  return pieces.filter((s) => s !== '');
}

/**
 * Recursive character splitting, as LangChain's RecursiveCharacterTextSplitter does it: split on the
 * first separator present, keep pieces that fit, split the others again with the next separators, then
 * merge neighbouring pieces up to chunkSize, carrying up to chunkOverlap of the end of a chunk into the
 * next one.
 */
export function recursiveSplit(text: string, options: RecursiveSplitOptions): string[] {
  if (options.chunkOverlap >= options.chunkSize) {
    throw new Error(
      `The chunk overlap (${options.chunkOverlap}) must be smaller than the chunk size (${options.chunkSize}).`,
    );
  }
  // Compiled once: a pattern RE2 refuses throws UnsupportedPatternError before any text is split.
  const compiled = new Map<string, Separator>();
  for (const s of options.separators) {
    if (s !== '' && !compiled.has(s)) compiled.set(s, options.isSeparatorRegex ? pattern(s) : literal(s));
  }
  return split(text, options.separators, { ...options, compiled });
}

type SplitContext = RecursiveSplitOptions & { compiled: ReadonlyMap<string, Separator> };

function split(text: string, separators: readonly string[], o: SplitContext): string[] {
  let separator = separators[separators.length - 1] ?? '';
  let rest: readonly string[] = [];
  for (let i = 0; i < separators.length; i++) {
    const s = separators[i]!;
    if (s === '') {
      separator = s;
      break;
    }
    if (o.compiled.get(s)!.foundIn(text)) {
      separator = s;
      rest = separators.slice(i + 1);
      break;
    }
  }
  const pieces = splitKeeping(text, separator, o.compiled.get(separator)!);
  const chunks: string[] = [];
  let fitting: string[] = [];
  for (const piece of pieces) {
    if (o.length(piece) < o.chunkSize) {
      fitting.push(piece);
      continue;
    }
    if (fitting.length > 0) {
      chunks.push(...merge(fitting, o));
      fitting = [];
    }
    if (rest.length === 0) chunks.push(piece);
    else chunks.push(...split(piece, rest, o));
  }
  if (fitting.length > 0) chunks.push(...merge(fitting, o));
  return chunks;
}

function merge(pieces: readonly string[], o: RecursiveSplitOptions): string[] {
  const chunks: string[] = [];
  const current: string[] = [];
  const lengths: number[] = [];
  let total = 0;
  const flush = () => {
    const chunk = current.join('').trim();
    if (chunk !== '') chunks.push(chunk);
  };
  for (const piece of pieces) {
    const len = o.length(piece);
    if (total + len > o.chunkSize && current.length > 0) {
      flush();
      // Keep the end of this chunk as the start of the next, within the overlap.
      while (total > o.chunkOverlap || (total + len > o.chunkSize && total > 0)) {
        total -= lengths.shift()!;
        current.shift();
      }
    }
    current.push(piece);
    lengths.push(len);
    total += len;
  }
  flush();
  return chunks;
}
