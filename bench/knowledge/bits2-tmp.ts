import { sketchOf } from '@atelier/knowledge';
import { bagOfWordsEmbedding } from '@atelier/testkit';
import { DIMENSION, ExactIndex, paragraph, question } from './corpus';
const N = 100_000, Q = 200, FULL = 2048, W = 64;
const sk = sketchOf(DIMENSION, FULL);
const variants = ['f64', 'f32', 'f32thr'];
const bits = variants.map(() => new Uint32Array(N * W));
function toBits(s: Float32Array, thr: boolean, out: Uint32Array, o: number) {
  let rms = 0; for (let j = 0; j < FULL; j++) rms += s[j]! * s[j]!; rms = Math.sqrt(rms / FULL);
  const t = thr ? 1e-4 * rms : 0;
  for (let j = 0; j < FULL; j++) if (s[j]! > t) out[o + (j >> 5)]! |= 1 << (j & 31);
}
const emb = (text: string) => bagOfWordsEmbedding(text, DIMENSION);
for (let n = 0; n < N; n++) {
  const e = emb(paragraph(n));
  const e32 = Array.from(Float32Array.from(e));
  toBits(sk(e), false, bits[0]!, n * W);
  const s32 = sk(e32);
  toBits(s32, false, bits[1]!, n * W);
  toBits(s32, true, bits[2]!, n * W);
}
const exact = new ExactIndex(N, () => 0);
const pop = (x: number) => { x -= (x >>> 1) & 0x55555555; x = (x & 0x33333333) + ((x >>> 2) & 0x33333333); return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24; };
const sums = variants.map(() => 0);
for (let q = 0; q < Q; q++) {
  const text = question(q, N).text;
  const e = emb(text);
  const ex = exact.scores(text);
  variants.forEach((v, vi) => {
    const qb = new Uint32Array(W);
    toBits(sk(vi === 0 ? e : Array.from(Float32Array.from(e))), vi === 2, qb, 0);
    const d = new Int32Array(N);
    const B = bits[vi]!;
    for (let n = 0; n < N; n++) { let s = 0; const o = n * W; for (let w = 0; w < W; w++) s += pop(B[o + w]! ^ qb[w]!); d[n] = s; }
    const idx = Array.from({ length: N }, (_, i) => i).sort((a, b) => d[a]! - d[b]!).slice(0, 300);
    const top = idx.sort((a, b) => (ex.get(b) ?? 0) - (ex.get(a) ?? 0)).slice(0, 10);
    sums[vi] += exact.recall(text, top, 10);
  });
}
variants.forEach((v, i) => console.log(v, (sums[i]! / Q).toFixed(4)));
