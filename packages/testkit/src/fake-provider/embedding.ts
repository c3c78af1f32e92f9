import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import { tokenize } from './text';

/** A token's SHA-1, as used: a number from its first 4 bytes (the bucket), a sign from the fifth. */
interface TokenHash {
  bucketHash: number;
  sign: 1 | -1;
}

/**
 * Tokens already hashed: a bench embeds 100,000 chunks of a few thousand distinct words, and SHA-1 per
 * token was most of the fake provider's time (which shares the machine with the server it stands in for).
 * Bounded: cleared when it fills.
 */
const hashes = new Map<string, TokenHash>();
const MAX_CACHED = 100_000;
const BIG_ENDIAN = endianness() === 'BE';

function tokenHash(token: string): TokenHash {
  let found = hashes.get(token);
  if (!found) {
    const digest = createHash('sha1').update(token).digest();
    found = { bucketHash: digest.readUInt32LE(0), sign: (digest[4] ?? 0) & 1 ? 1 : -1 };
    if (hashes.size >= MAX_CACHED) hashes.clear();
    hashes.set(token, found);
  }
  return found;
}

/**
 * A deterministic stand-in for a learned embedding: each token is hashed into a bucket with a +1/-1
 * sign (signs keep unrelated words from adding up), then the vector is L2-normalised. Texts sharing
 * words get a high cosine similarity, unrelated texts land near 0. Text without words gives zeros.
 */
export function bagOfWordsEmbedding(text: string, dimensions: number): number[] {
  return Array.from(bagOfWords(text, dimensions));
}

/**
 * The same, in a typed array: the fake provider answers 100,000 of these in a bench, on the machine the
 * server it stands in for runs on, so it builds no number array (a third of its time went there).
 */
function bagOfWords(text: string, dimensions: number): Float64Array {
  const vector = new Float64Array(dimensions);
  for (const token of tokenize(text)) {
    const { bucketHash, sign } = tokenHash(token);
    const bucket = bucketHash % dimensions;
    vector[bucket] = vector[bucket]! + sign;
  }
  // The sum of squares of whole counts is exact, so its square root is the norm, correctly rounded.
  let squares = 0;
  for (let i = 0; i < dimensions; i++) squares += vector[i]! * vector[i]!;
  if (squares === 0) return vector;
  const norm = Math.sqrt(squares);
  for (let i = 0; i < dimensions; i++) vector[i]! /= norm;
  return vector;
}

/** OpenAI's `encoding_format: 'base64'`: float32 little-endian, which the openai SDK asks for by default. */
export function embeddingToBase64(vector: ArrayLike<number>): string {
  const floats = Float32Array.from(vector);
  const bytes = Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
  if (BIG_ENDIAN) bytes.swap32();
  return bytes.toString('base64');
}

/**
 * A whole base64 embeddings answer (OpenAI's list shape) as bytes, written piece by piece: a batch of 50
 * is 410 kB, which as one string (JSON.stringify, then its UTF-8 length and copy on the way out) cost the
 * fake provider more than the vectors themselves, on the machine of the server it stands in for.
 */
export function base64EmbeddingsBody(vectors: readonly string[], model: string, tokens: number): Buffer {
  const items = vectors.map((base64, index) => [
    `{"object":"embedding","index":${index},"embedding":"`,
    base64,
    '"}',
  ]);
  const head = '{"object":"list","data":[';
  const tail = `],"model":${JSON.stringify(model)},"usage":{"prompt_tokens":${tokens},"total_tokens":${tokens}}}`;
  let length = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, items.length - 1);
  for (const parts of items) for (const part of parts) length += part.length;
  const body = Buffer.allocUnsafe(length);
  let at = body.write(head, 0, 'latin1');
  items.forEach((parts, i) => {
    if (i > 0) at += body.write(',', at, 'latin1');
    // Every part is ASCII (digits, base64, fixed keys): one byte a character.
    for (const part of parts) at += body.write(part, at, 'latin1');
  });
  at += body.write(tail, at, 'utf8');
  return body;
}

/** The embedding of `text` as the provider answers it: base64 or a list of numbers. */
export function embeddingOf(text: string, dimensions: number, format: 'float' | 'base64'): string | number[] {
  const vector = bagOfWords(text, dimensions);
  return format === 'base64' ? embeddingToBase64(vector) : Array.from(vector);
}
