import { createHash } from 'node:crypto';
import { tokenize } from './text';

/**
 * A deterministic stand-in for a learned embedding: each token is hashed into a bucket with a +1/-1
 * sign (signs keep unrelated words from adding up), then the vector is L2-normalised. Texts sharing
 * words get a high cosine similarity, unrelated texts land near 0. Text without words gives zeros.
 */
export function bagOfWordsEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const token of tokenize(text)) {
    const hash = createHash('sha1').update(token).digest();
    const bucket = hash.readUInt32LE(0) % dimensions;
    vector[bucket] = (vector[bucket] ?? 0) + ((hash[4] ?? 0) & 1 ? 1 : -1);
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** OpenAI's `encoding_format: 'base64'`: float32 little-endian, which the openai SDK asks for by default. */
export function embeddingToBase64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}
