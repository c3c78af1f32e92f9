import pg from 'pg';
import { sketchProbe } from '@atelier/knowledge';
import { bagOfWordsEmbedding } from '@atelier/testkit';
import { DIMENSION, ExactIndex, question } from './corpus';
const N = 100_000;
const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
await c.connect();
const t = (await c.query("select n.nspname||'.'||quote_ident(c.relname) t from pg_class c join pg_namespace n on n.oid=c.relnamespace where c.relname like 'rc_%' and c.relkind='r' order by pg_relation_size(c.oid) desc limit 1")).rows[0].t;
console.log(t, (await c.query(`select indexdef from pg_indexes where indexname like '%hnsw'`)).rows);
const exact = new ExactIndex(N, () => 0);
const probe = sketchProbe('sketch_bit', 'cosine', DIMENSION);
const nOf = (m: { filename: string; chunk_index: number }) => Number(/doc-(\d+)/.exec(m.filename)![1]) * 50 + m.chunk_index;
for (const ef of [300, 400]) {
  await c.query(`set hnsw.ef_search = ${ef}`);
  let recall = 0;
  for (let q = 0; q < 200; q++) {
    const text = question(q, N).text;
    const e = bagOfWordsEmbedding(text, DIMENSION);
    const rows = (await c.query(`select metadata from (select metadata, embedding <=> $1::vector d from ${t} order by sketch <~> $2::${probe.type} limit ${ef}) s order by d limit 10`, [`[${e.join(',')}]`, probe.literal(e)])).rows;
    recall += exact.recall(text, rows.map((r) => nOf(r.metadata)), 10);
  }
  console.log(ef, recall / 200);
}
await c.end();
