// The bench's documents: seeded text whose chunks the bench can score exactly by itself, and large PDFs.
import { seeded } from '@atelier/knowledge';
import { bagOfWordsEmbedding } from '@atelier/testkit';
import { PDFDocument, StandardFonts } from 'pdf-lib';

export const DIMENSION = 1536;
/** Chunk size of the bench collection: each paragraph (230–380 characters) is exactly one chunk. */
export const CHUNK_SIZE = 400;
const VOCABULARY = 20_000;

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'do', 'gu', 'fi', 'ha', 'be'];
const words = Array.from({ length: VOCABULARY }, (_, i) => {
  let n = i + SYLLABLES.length;
  let word = '';
  while (n > 0) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return word;
});

/** Paragraphs come in documents of 50, each document about one of 200 topics. */
const TOPICS = 200;
const TOPIC_WORDS = 90;
const COMMON_FROM = TOPICS * TOPIC_WORDS;

/**
 * Paragraph `n`: as in real documents, most words come from its document's topic (each topic has its own
 * 90 words) and the rest from 2,000 common words (drawn with a skew: some recur often); ended by its own
 * marker `uN`. BENCH_CORPUS=uniform draws every word from the whole vocabulary instead: no topical
 * structure at all, the hardest case for an HNSW graph.
 */
export function paragraph(n: number): string {
  const random = seeded(n * 7919 + 17);
  const topic = Math.floor(n / 50) % TOPICS;
  const marker = ` u${n}.`;
  const uniform = process.env.BENCH_CORPUS === 'uniform';
  let text = '';
  while (text.length + marker.length < 230) {
    const word = uniform
      ? words[Math.floor(VOCABULARY * random() ** 2)]!
      : random() < 0.6
        ? words[topic * TOPIC_WORDS + Math.floor(random() * TOPIC_WORDS)]!
        : words[COMMON_FROM + Math.floor((VOCABULARY - COMMON_FROM) * random() ** 2)]!;
    if (text.length + word.length + 1 + marker.length > 380) break;
    text += (text ? ' ' : '') + word;
  }
  return text + marker;
}

/** A few words of paragraph `n` (and one unrelated word): a question whose best answer is that chunk. */
export function question(q: number, chunks: number): { text: string; target: number } {
  const random = seeded(1e9 + q);
  const target = Math.floor(random() * chunks);
  const own = paragraph(target).split(' ').slice(0, -1);
  const picked = Array.from({ length: 5 }, () => own[Math.floor(random() * own.length)]!);
  return { text: [...picked, words[Math.floor(random() * VOCABULARY)]].join(' '), target };
}

/** Sparse form of the fake provider's embedding (it only has as many non-zeros as distinct words). */
export function sparseEmbedding(text: string): Map<number, number> {
  const dense = bagOfWordsEmbedding(text, DIMENSION);
  const sparse = new Map<number, number>();
  dense.forEach((value, index) => value !== 0 && sparse.set(index, value));
  return sparse;
}

/** Exact cosine search over all chunks (an inverted index on the embedding's buckets). */
export class ExactIndex {
  private readonly postings = new Map<number, { chunk: number; value: number }[]>();
  private readonly groups: number[];

  /** `group(n)`: a label per chunk (the document kind), for filtered exact search. */
  constructor(chunks: number, group: (chunk: number) => number) {
    this.groups = Array.from({ length: chunks }, (_, n) => group(n));
    for (let n = 0; n < chunks; n++) {
      for (const [bucket, value] of sparseEmbedding(paragraph(n))) {
        let list = this.postings.get(bucket);
        if (!list) this.postings.set(bucket, (list = []));
        list.push({ chunk: n, value });
      }
    }
  }

  /** Similarity of every chunk sharing a bucket with the query (others score 0). */
  scores(query: string, onlyGroup?: number): Map<number, number> {
    const scores = new Map<number, number>();
    for (const [bucket, q] of sparseEmbedding(query)) {
      for (const { chunk, value } of this.postings.get(bucket) ?? []) {
        if (onlyGroup !== undefined && this.groups[chunk] !== onlyGroup) continue;
        scores.set(chunk, (scores.get(chunk) ?? 0) + q * value);
      }
    }
    return scores;
  }

  /**
   * Recall@k with ties counted fairly: a returned chunk is right when it scores at least as high as
   * the k-th best of exact search (bag-of-words vectors tie often, and either tied chunk is correct).
   */
  recall(query: string, returned: number[], k: number, onlyGroup?: number): number {
    const scores = this.scores(query, onlyGroup);
    const best = [...scores.values()].sort((a, b) => b - a);
    const kth = best[Math.min(k, best.length) - 1] ?? 0;
    const right = returned.slice(0, k).filter((chunk) => (scores.get(chunk) ?? 0) >= kth - 1e-6).length;
    return right / Math.min(k, Math.max(best.length, 1));
  }
}

/**
 * A PDF of about `bytes` bytes: `pages` pages of readable text and an attached incompressible file
 * making up the rest (the bulk of a real 10 MB PDF is images: parsing must not hold many such at once).
 */
export async function largePdf(index: number, bytes: number, pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842]);
    const text = paragraph(10_000_000 + index * 1000 + p);
    for (let line = 0; line < 6; line++) {
      page.drawText(text.slice(line * 64, line * 64 + 64), { x: 40, y: 780 - line * 16, size: 10, font });
    }
  }
  const filler = Buffer.alloc(Math.max(0, bytes - pages * 1500));
  const random = seeded(index + 5);
  for (let i = 0; i + 4 <= filler.length; i += 4) filler.writeUInt32LE((random() * 2 ** 32) >>> 0, i);
  await pdf.attach(filler, 'scan.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await pdf.save());
}
