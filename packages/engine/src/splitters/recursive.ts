export interface RecursiveSplitOptions {
  chunkSize: number;
  chunkOverlap: number;
  /** Tried in order: the first one found in the text splits it; pieces still too long try the next ones. */
  separators: readonly string[];
  isSeparatorRegex: boolean;
  /** Length of a piece of text (characters by default, tokens when asked). */
  length: (text: string) => number;
}

const escapeRegex = (s: string) => s.replace(/[/\-\\^$*+?.()|[\]{}]/g, '\\$&');

/** Splits keeping each separator at the start of the piece that follows it. */
function splitKeeping(text: string, separator: string): string[] {
  if (separator === '') return [...text];
  return text.split(new RegExp(`(?=${separator})`)).filter((s) => s !== '');
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
  return split(text, options.separators, options);
}

function split(text: string, separators: readonly string[], o: RecursiveSplitOptions): string[] {
  let separator = separators[separators.length - 1] ?? '';
  let rest: readonly string[] = [];
  for (let i = 0; i < separators.length; i++) {
    const s = separators[i]!;
    if (s === '') {
      separator = s;
      break;
    }
    if (new RegExp(o.isSeparatorRegex ? s : escapeRegex(s)).test(text)) {
      separator = s;
      rest = separators.slice(i + 1);
      break;
    }
  }
  const pieces = splitKeeping(text, o.isSeparatorRegex ? separator : escapeRegex(separator));
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
