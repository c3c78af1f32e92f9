import pg from 'pg';
import { bagOfWordsEmbedding } from '@atelier/testkit';
import { question, ExactIndex } from './corpus';
const T = process.argv[2]!;
const variants = process.argv.slice(3);
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
await c.connect();
const qs = Array.from({ length: 200 }, (_, q) => question(q, 100000).text);
const exact = new ExactIndex(100000, () => 0);
const markerOf = (content: string) => Number(/u(\d+)\.$/.exec(content.trim())?.[1] ?? -1);
const pct = (a: number[], p: number) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!; };
const H = 'halfvec(1536)';
for (const v of variants) {
  const [m, efc] = v.split('/').map(Number);
  await c.query(`DROP INDEX IF EXISTS kb."_${T}_hnsw"`);
  await c.query(`DROP INDEX IF EXISTS kb.lab_idx`);
  await c.query("SET maintenance_work_mem = '1000MB'");
  const t0 = performance.now();
  await c.query(`CREATE INDEX lab_idx ON kb.${T} USING hnsw ((embedding::${H}) halfvec_cosine_ops) WITH (m = ${m}, ef_construction = ${efc})`);
  const build = (performance.now() - t0) / 1000;
  await c.query(`SELECT pg_prewarm('kb.lab_idx')`);
  for (const ef of [100, 150, 200]) {
    await c.query(`SET hnsw.ef_search = ${ef}`);
    const times: number[] = []; let recall = 0;
    for (let r = 0; r < 2; r++) for (const q of qs) {
      const vec = `[${bagOfWordsEmbedding(q, 1536).join(',')}]`;
      const s = performance.now();
      const rows = (await c.query(`SELECT * FROM (SELECT id, content, embedding <=> $1::vector AS d FROM kb.${T} ORDER BY embedding::${H} <=> $1::${H} LIMIT 20) s ORDER BY d, id LIMIT 10`, [vec])).rows;
      if (r === 1) { times.push(performance.now() - s); recall += exact.recall(q, rows.map((x) => markerOf(x.content)), 10); }
    }
    console.log(JSON.stringify({ m, efc, build_s: +build.toFixed(1), ef, p50: +pct(times, 50).toFixed(2), p99: +pct(times, 99).toFixed(2), recall: +(recall / qs.length).toFixed(4) }));
  }
}
await c.end();
