import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tooLarge, unreadable } from './errors';

const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(n < 1024 * 1024 ? 2 : 0)} MB`;

/**
 * Reads a whole source into memory, refusing (413) as soon as more than `maxBytes` arrived: the rest of
 * the stream is never pulled (the iterator is returned, which destroys a Node stream).
 */
export async function readLimited(
  source: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += bytes.byteLength;
    if (total > maxBytes) throw tooLarge(`document is larger than the ${mb(maxBytes)} limit`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}

/** Reads a file from disk with the same limit; a file already known to be too large is not opened. */
export async function readFileLimited(path: string, maxBytes: number): Promise<Uint8Array> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw unreadable('not a regular file');
    size = info.size;
  } catch (err) {
    if (err instanceof Error && 'code' in err)
      throw unreadable(`cannot read the document (${String(err.code)})`, err);
    throw err;
  }
  if (size > maxBytes) throw tooLarge(`document is larger than the ${mb(maxBytes)} limit`);
  // The file may grow between stat and read: the stream is still counted.
  return readLimited(createReadStream(path, { highWaterMark: 256 * 1024 }), maxBytes);
}
