import { sketchOf } from '@atelier/knowledge';
import { bagOfWordsEmbedding } from '@atelier/testkit';
import { DIMENSION, ExactIndex, paragraph, question } from './corpus';
const N = 100_000, Q = 200, FULL = 2048;
const sk = sketchOf(DIMENSION, FULL);
const floats = new Float32Array(N * 512);
const bits = new Uint32Array(N * (FULL / 32));
const W = FULL / 32;
for (let n = 0; n < N; n++) {
  const s = sk(bagOfWordsEmbedding(paragraph(n), DIMENSION));
  floats.set(s.subarray(0, 512), n * 512);
  for (let j = 0; j < FULL; j++) if (s[j]! > 0) bits[n * W + (j >> 5)]! |= 1 << (j & 31);
}
console.error('sketched');
const exact = new ExactIndex(N, () => 0);
const pop = (x: number) => { x -= (x >>> 1) & 0x55555555; x = (x & 0x33333333) + ((x >>> 2) & 0x33333333); return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24; };
function topN(score: (n: number) => number, k: number): number[] {
  const all = new Float64Array(N); for (let n = 0; n < N; n++) all[n] = score(n);
  const idx = Array.from({ length: N }, (_, i) => i).sort((a, b) => all[b]! - all[a]!);
  return idx.slice(0, k);
}
const configs: [string, number][] = [['float512', 0], ['bits512', 512], ['bits1024', 1024], ['bits2048', 2048]];
const cands = [100, 200, 300, 500];
const sums: Record<string, number> = {};
for (let q = 0; q < Q; q++) {
  const text = question(q, N).text;
  const qs = sk(bagOfWordsEmbedding(text, DIMENSION));
  const qb = new Uint32Array(W); for (let j = 0; j < FULL; j++) if (qs[j]! > 0) qb[j >> 5]! |= 1 << (j & 31);
  const ex = exact.scores(text);
  for (const [name, b] of configs) {
    const score = b === 0
      ? (n: number) => { let s = 0; const o = n * 512; for (let j = 0; j < 512; j++) s += floats[o + j]! * qs[j]!; return s; }
      : (n: number) => { let d = 0; const o = n * W; for (let w = 0; w < b / 32; w++) d += pop(bits[o + w]! ^ qb[w]!); return -d; };
    const top = topN(score, 500);
    for (const c of cands) {
      const reranked = top.slice(0, c).sort((a, b) => (ex.get(b) ?? 0) - (ex.get(a) ?? 0)).slice(0, 10);
      const key = `${name}@${c}`;
      sums[key] = (sums[key] ?? 0) + exact.recall(text, reranked, 10);
    }
  }
}
for (const [k, v] of Object.entries(sums)) console.log(k, (v / Q).toFixed(4));
