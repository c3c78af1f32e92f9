import pg from 'pg';
import { encodeVectorArray, sketchOf } from '@atelier/knowledge';
import { bagOfWordsEmbedding } from '@atelier/testkit';
import { DIMENSION, ExactIndex, paragraph, question } from './corpus';
import { percentile } from '../shared/stats';
const N = 100_000, Q = 200, BITS = Number(process.env.BITS ?? 2048);
const log = (...a: unknown[]) => console.error(`[${new Date().toISOString().slice(11, 19)}]`, ...a);
const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
await c.connect();
const [{ oid }] = (await c.query("SELECT oid::int FROM pg_type WHERE typname = 'vector'")).rows;
const sk = sketchOf(DIMENSION, 2048);
const bitsOf = (s: Float32Array) => { let out = ''; for (let j = 0; j < BITS; j++) out += s[j]! > 0 ? '1' : '0'; return out; };
const have = (await c.query("select to_regclass('lab.bits') r")).rows[0].r;
if (!have || process.env.RELOAD) {
  await c.query('create schema if not exists lab; drop table if exists lab.bits');
  await c.query(`create table lab.bits (id int primary key, embedding vector(1536) compression lz4 not null, sk halfvec(512) compression lz4, bits bit(${BITS}))`);
  await c.query('alter table lab.bits alter column embedding set storage main');
  for (let s = 0; s < N; s += 500) {
    const rows = Array.from({ length: Math.min(500, N - s) }, (_, k) => s + k);
    const embs = rows.map((r) => bagOfWordsEmbedding(paragraph(r), DIMENSION));
    const sks = embs.map((e) => sk(e));
    await c.query(`insert into lab.bits select * from unnest($1::int[], $2::vector[], $3::text[]::halfvec(512)[], $4::text[]::bit(${BITS})[])`, [
      rows, encodeVectorArray(embs, DIMENSION, oid), sks.map((x) => `[${Array.from(x.subarray(0, 512)).join(',')}]`), sks.map(bitsOf)]);
  }
  await c.query('vacuum analyze lab.bits');
  log('loaded');
}
const exact = new ExactIndex(N, () => 0);
const variants = (process.env.V ?? 'bits:m=12,ef_construction=48;half:m=12,ef_construction=48').split(';');
for (const v of variants) {
  const [col, params] = v.split(':');
  await c.query('drop index if exists lab.bits_idx');
  await c.query("set maintenance_work_mem = '1500MB'");
  await c.query('alter table lab.bits set (parallel_workers = 1)');
  const ops = col === 'bits' ? 'bits bit_hamming_ops' : 'sk halfvec_cosine_ops';
  const t0 = performance.now();
  await c.query(`create index bits_idx on lab.bits using hnsw (${ops}) with (${params})`);
  const build = (performance.now() - t0) / 1000;
  const size = (await c.query("select pg_size_pretty(pg_relation_size('lab.bits_idx')) s")).rows[0].s;
  for (const ef of (process.env.EF ?? '300').split(',').map(Number)) {
    await c.query(`set hnsw.ef_search = ${ef}`);
    let recall = 0; const times: number[] = [];
    for (let q = 0; q < Q; q++) {
      const text = question(q, N).text;
      const e = bagOfWordsEmbedding(text, DIMENSION);
      const s = sk(e);
      const probe = col === 'bits' ? `bits <~> $2::bit(${BITS})` : 'sk <=> $2::halfvec(512)';
      const arg = col === 'bits' ? bitsOf(s) : `[${Array.from(s.subarray(0, 512)).join(',')}]`;
      const t = performance.now();
      const rows = (await c.query(`select id from (select id, embedding from lab.bits order by ${probe} limit ${ef}) c order by embedding <=> $1::vector limit 10`, [`[${e.join(',')}]`, arg])).rows;
      times.push(performance.now() - t);
      recall += exact.recall(text, rows.map((r) => r.id), 10);
    }
    console.log(JSON.stringify({ v, build_s: +build.toFixed(1), size, ef, recall: recall / Q, p50: +percentile(times, 50).toFixed(2), p99: +percentile(times, 99).toFixed(2) }));
  }
}
await c.end();
