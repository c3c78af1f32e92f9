import { RE2JS, RE2JSException } from 're2js';

/**
 * Regular expressions written by users (splitter separators) never run on JavaScript's backtracking
 * engine: a pattern such as `(a+)+$` would block the event loop for every organization. They run on
 * RE2JS, a linear-time engine (RE2 syntax), which refuses backreferences and lookarounds.
 */
export class UnsupportedPatternError extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`${JSON.stringify(pattern)} is not an accepted regular expression: ${reason}`);
    this.name = 'UnsupportedPatternError';
  }
}

const LOOKAROUND = /\(\?<?[=!]/;
const BACKREFERENCE = /\\([1-9]|k<)/;

/** Why RE2 refuses a pattern, in words a flow author can act on. */
function reasonFor(pattern: string, error: unknown): string {
  const detail =
    error instanceof RE2JSException ? error.message.replace(/^error parsing regexp: /, '') : String(error);
  if (LOOKAROUND.test(pattern)) {
    return `lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) are not supported (${detail}).`;
  }
  if (BACKREFERENCE.test(pattern)) {
    return `backreferences (\\1, \\k<name>) are not supported (${detail}).`;
  }
  return `${detail}. Patterns use RE2 syntax, without backreferences or lookarounds.`;
}

/** The compiled pattern, or an UnsupportedPatternError saying why it is refused. */
export function compileUserRegex(pattern: string): RE2JS {
  try {
    return RE2JS.compile(pattern);
  } catch (error) {
    throw new UnsupportedPatternError(pattern, reasonFor(pattern, error));
  }
}

/** Why a user pattern is refused, or null when it is accepted. */
export function userRegexProblem(pattern: string): string | null {
  try {
    compileUserRegex(pattern);
    return null;
  } catch (error) {
    if (error instanceof UnsupportedPatternError) return error.reason;
    throw error;
  }
}

/** The message for a refused separator of a recursive splitter (at save, publish and run). */
export const separatorProblem = (index: number, pattern: string, reason: string): string =>
  `Separator ${index + 1} (${JSON.stringify(pattern)}) is not accepted as a regular expression: ${reason}`;

/**
 * Where the pattern matches, leftmost first and without overlapping (after an empty match the search
 * moves on by one character), as UTF-16 offsets into the text. Linear in the length of the text.
 */
export function* matchStarts(re: RE2JS, text: string): Generator<number> {
  const m = re.matcher(text);
  let from = 0;
  while (from <= text.length && m.find(from)) {
    const start = m.start();
    const end = m.end();
    yield start;
    // After an empty match, move on by one character (both halves of a surrogate pair).
    from = end > start ? end : end + ((text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1);
  }
}
