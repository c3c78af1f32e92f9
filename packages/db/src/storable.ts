/**
 * What a model or a flow node returns is stored whatever it holds. Postgres text and jsonb cannot hold
 * U+0000, and jsonb refuses a lone UTF-16 surrogate: both become U+FFFD (the replacement character) at
 * the one place each write happens, so a stray byte in an answer never turns into a failed write.
 */

const REPLACEMENT = '\uFFFD';

// NUL, or a surrogate half without its other half (matching NUL is the point of these two).
// eslint-disable-next-line no-control-regex
const UNSTORABLE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// eslint-disable-next-line no-control-regex
const MAYBE_UNSTORABLE_TEXT = /[\u0000\uD800-\uDFFF]/;

/** The text with NUL characters and lone surrogates replaced by U+FFFD (the same string when clean). */
export function storableText(text: string): string {
  return MAYBE_UNSTORABLE_TEXT.test(text) ? text.replace(UNSTORABLE_TEXT, REPLACEMENT) : text;
}

// In JSON text, JSON.stringify writes NUL as the escape \u0000 and a lone surrogate as \udXXX (a paired
// one is written as is, never escaped): every such escape is unstorable. It counts only when its
// backslash is not itself escaped, that is when an even run of backslashes precedes it.
const UNSTORABLE_ESCAPE = /(?<=(?:^|[^\\])(?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/gi;
const MAYBE_UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/i;

/**
 * JSON text as JSON.stringify writes it, made acceptable to jsonb: NUL and lone-surrogate escapes, in
 * keys and values at any depth, become U+FFFD. One regular-expression pass, no recursion.
 */
export function storableJsonText(json: string): string {
  return MAYBE_UNSTORABLE_ESCAPE.test(json) ? json.replace(UNSTORABLE_ESCAPE, '\\ufffd') : json;
}

/** A value for a jsonb column (written by drizzle with JSON.stringify): the same value when clean. */
export function storableJson<T>(value: T): T {
  if (value === undefined || value === null) return value;
  const json = JSON.stringify(value);
  const clean = storableJsonText(json);
  return clean === json ? value : (JSON.parse(clean) as T);
}
