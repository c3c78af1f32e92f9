import { ProviderError } from '../errors';

/**
 * Reading an embeddings answer without making one string of it. Asked for base64, the answer to a batch
 * of 50 texts of 1,536 dimensions is 410 kB of JSON, almost all of it the vectors' base64. Decoded whole
 * (`response.json()`), it becomes a string that large, and V8 keeps strings over 128 kB in fresh memory
 * of their own: 1.8 ms a batch on a virtual machine whose page faults are slow, against 0.04 ms for the
 * same bytes as strings of a few kB. So the bytes are walked string by string (a JSON string ends at
 * the first quote not escaped by a backslash), each `"embedding": "<base64>"` value is decoded from its
 * own slice and replaced by a short marker, and only what is left, a few hundred bytes, is parsed as JSON.
 * A value with an escape in it (`\/`) or a list of numbers is left to JSON.parse.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const KEY = Buffer.from('embedding');
/** A marker is `#<n>`: `#` is not in the base64 alphabet, so no real value looks like one. */
const MARK = '#';

/** The index of the quote closing the JSON string opened at `open`, or -1. */
function stringEnd(bytes: Buffer, open: number): number {
  for (let at = open + 1; ; at++) {
    at = bytes.indexOf(QUOTE, at);
    if (at < 0) return -1;
    let slashes = 0;
    while (bytes[at - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
}

/** The first index from `at` that is not JSON whitespace. */
function skipSpace(bytes: Buffer, at: number): number {
  while (
    at < bytes.length &&
    (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x09)
  )
    at++;
  return at;
}

/**
 * Parses an embeddings answer's bytes; `decode` turns one base64 value into its vector. Each
 * `embedding` value comes back decoded (base64 ones through `decode`, number lists as sent).
 */
export function parseEmbeddingsBody<V>(bytes: Buffer, decode: (base64: string) => V): unknown {
  const pieces: string[] = [];
  const decoded: V[] = [];
  let copied = 0;
  let at = 0;
  for (;;) {
    const open = bytes.indexOf(QUOTE, at);
    if (open < 0) break;
    const close = stringEnd(bytes, open);
    if (close < 0) break;
    at = close + 1;
    if (close - open - 1 !== KEY.length || bytes.compare(KEY, 0, KEY.length, open + 1, close) !== 0) continue;
    const colon = skipSpace(bytes, close + 1);
    if (bytes[colon] !== COLON) continue;
    const valueOpen = skipSpace(bytes, colon + 1);
    if (bytes[valueOpen] !== QUOTE) continue;
    const valueClose = stringEnd(bytes, valueOpen);
    if (valueClose < 0) break;
    at = valueClose + 1;
    const escape = bytes.indexOf(BACKSLASH, valueOpen + 1);
    if (escape >= 0 && escape < valueClose) continue;
    pieces.push(bytes.toString('utf8', copied, valueOpen + 1), `${MARK}${decoded.length}`);
    copied = valueClose;
    decoded.push(decode(bytes.toString('latin1', valueOpen + 1, valueClose)));
  }
  pieces.push(bytes.toString('utf8', copied));
  let body: unknown;
  try {
    body = JSON.parse(pieces.join(''));
  } catch {
    throw new ProviderError('provider_error', 'The provider answered embeddings that are not JSON.');
  }
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) {
    throw new ProviderError('provider_error', 'The provider answered embeddings without a data list.');
  }
  for (const item of data as { embedding?: unknown }[]) {
    if (typeof item?.embedding !== 'string') continue;
    item.embedding = item.embedding.startsWith(MARK)
      ? decoded[Number(item.embedding.slice(1))]
      : decode(item.embedding);
  }
  return body;
}
