// bench/knowledge index lab: HNSW/IVFFlat variants over the bench corpus (BENCH_CHUNKS paragraphs in
// lab.corpus, kept between runs), straight in SQL: build seconds, index size, query p50/p99 and recall@10
// for each SET list. LAB_VARIANTS=name:setting;setting:...,name2 (names below, or half-m<M>-ef<EF>: the
// store's halfvec index with other build parameters); LAB_WORKERS build workers (2), LAB_MEMORY
// maintenance_work_mem (1500MB); DATABASE_URL required. LAB_SKETCH=512 adds a `sketch halfvec(512)`
// column (the store's sketch, `sketch.ts`) for the variants sk-n<N>[-m<M>-ef<EF>] (HNSW over it, its N
// nearest re-ranked by the full vectors) and skv-… (the same as full-precision `vector`). LAB_BITS=1 adds
// a `bits bit(2048)` column (the store's binary sketch of the float32 embeddings, `bitSketchOf`) for
// the variants bits-n<N>[-m<M>-ef<EF>] (HNSW by Hamming distance, N nearest re-ranked) and
// bivf-l<L>-n<N> (IVFFlat of L lists over it, N nearest re-ranked; SET ivfflat.probes).
// How the store's index was chosen (100,000 chunks, a machine loaded ~20 on 2 cores): halfvec m16
// ef_construction 64 recall 0.942 / 0.983 at ef_search 100 / 200; ef_construction 32 0.94 / 0.958 at
// 150 / 200; binary quantization + re-rank of 100: 0.01 (sparse vectors); IVFFlat 316 lists: 0.81 at
// 10 probes; IVFFlat over the binary sketch (2026-12-02): built in 3.1 s (316 lists) against 17-29 s for
// HNSW, but recall@10 of 300 candidates 0.63 / 0.71 / 0.79 at 10 / 20 / 40 probes (1,000 lists: 0.835 at 80).
import { bagOfWordsEmbedding } from '@atelier/testkit';
import pg from 'pg';
import { bitSketchOf, encodeVectorArray, SKETCH_BITS, sketchOf } from '@atelier/knowledge';
import { percentile } from '../shared/stats';
import { DIMENSION, ExactIndex, paragraph, question } from './corpus';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const VARIANTS = (process.env.LAB_VARIANTS ?? 'vector').split(',');
const RELOAD = process.env.LAB_RELOAD === '1';
const log = (...a: unknown[]) => console.error(`[${new Date().toISOString().slice(11, 19)}]`, ...a);

const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
await client.query('CREATE EXTENSION IF NOT EXISTS vector');
const [{ oid }] = (await client.query("SELECT oid::int FROM pg_type WHERE typname = 'vector'")).rows;
const exists = (await client.query("SELECT to_regclass('lab.corpus') AS r")).rows[0].r;
const [{ n }] = exists ? (await client.query('SELECT count(*)::int AS n FROM lab.corpus')).rows : [{ n: 0 }];
if (RELOAD || n !== CHUNKS) {
  await client.query('DROP SCHEMA IF EXISTS lab CASCADE; CREATE SCHEMA lab');
  await client.query(`CREATE TABLE lab.corpus (id text PRIMARY KEY, content text NOT NULL, content_hash text NOT NULL,
    metadata jsonb NOT NULL DEFAULT '{}', embedding vector(${DIMENSION}) NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', content)) STORED)`);
  await client.query('ALTER TABLE lab.corpus ALTER COLUMN embedding SET STORAGE MAIN');
  if (process.env.LAB_LZ4 === '1')
    await client.query('ALTER TABLE lab.corpus ALTER COLUMN embedding SET COMPRESSION lz4');
  if (process.env.LAB_GIN !== '0') {
    await client.query('CREATE INDEX ON lab.corpus USING gin (tsv)');
    await client.query('CREATE INDEX ON lab.corpus USING gin (metadata jsonb_path_ops)');
  }
  const started = performance.now();
  for (let s = 0; s < CHUNKS; s += 500) {
    const rows = Array.from({ length: Math.min(500, CHUNKS - s) }, (_, k) => s + k);
    const texts = rows.map(paragraph);
    await client.query(
      `INSERT INTO lab.corpus (id, content, content_hash, metadata, embedding)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[], $5::vector[])`,
      [
        rows.map((r) => `d${Math.floor(r / 50)}:${r % 50}`),
        texts,
        texts.map(() => 'x'),
        rows.map((r) => JSON.stringify({ document_id: `d${Math.floor(r / 50)}`, chunk_index: r % 50 })),
        encodeVectorArray(
          texts.map((t) => bagOfWordsEmbedding(t, DIMENSION)),
          DIMENSION,
          oid,
        ),
      ],
    );
  }
  log(`loaded ${CHUNKS} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await client.query('VACUUM ANALYZE lab.corpus');
}
/** Adds `column` of `type`, each chunk's value from `value`, unless the table has it already. */
async function ensureColumn(column: string, type: string, value: (chunk: number) => string) {
  const [{ t }] = (
    await client.query(
      "SELECT format_type(atttypid, atttypmod) AS t FROM pg_attribute WHERE attrelid = 'lab.corpus'::regclass AND attname = $1",
      [column],
    )
  ).rows.concat([{ t: null }]);
  if (t === type) return;
  const started = performance.now();
  await client.query('DROP INDEX IF EXISTS lab.lab_idx');
  await client.query(`ALTER TABLE lab.corpus DROP COLUMN IF EXISTS ${column}`);
  await client.query(`ALTER TABLE lab.corpus ADD COLUMN ${column} ${type}`);
  for (let s = 0; s < CHUNKS; s += 1000) {
    const rows = Array.from({ length: Math.min(1000, CHUNKS - s) }, (_, k) => s + k);
    await client.query(
      `UPDATE lab.corpus c SET ${column} = u.v::${type} FROM unnest($1::text[], $2::text[]) u(id, v) WHERE c.id = u.id`,
      [rows.map((r) => `d${Math.floor(r / 50)}:${r % 50}`), rows.map(value)],
    );
  }
  await client.query('VACUUM ANALYZE lab.corpus');
  log(`${column}: ${CHUNKS} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const SKETCH = Number(process.env.LAB_SKETCH ?? 0);
if (SKETCH) {
  const sketch = sketchOf(DIMENSION, SKETCH);
  await ensureColumn(
    'sketch',
    `halfvec(${SKETCH})`,
    (r) => `[${Array.from(sketch(bagOfWordsEmbedding(paragraph(r), DIMENSION))).join(',')}]`,
  );
}
const bitSketch = bitSketchOf(DIMENSION);
if (process.env.LAB_BITS === '1') {
  // As the store gets them: the provider's float32 numbers.
  await ensureColumn('bits', `bit(${SKETCH_BITS})`, (r) =>
    bitSketch(Float32Array.from(bagOfWordsEmbedding(paragraph(r), DIMENSION))),
  );
}
const size = (await client.query("SELECT pg_size_pretty(pg_table_size('lab.corpus')) s")).rows[0].s;
log(`table size ${size}`);

const exact = new ExactIndex(CHUNKS, () => 0);
const questions = Array.from({ length: QUERIES }, (_, q) => question(q, CHUNKS).text);
const vectors = questions.map((t) => `[${bagOfWordsEmbedding(t, DIMENSION).join(',')}]`);
const markerOf = (content: string) => Number(/u(\d+)\.$/.exec(content.trim())?.[1] ?? -1);

interface Variant {
  index: string;
  query: (v: string) => [string, string[]];
  settings?: string;
}
const H = `halfvec(${DIMENSION})`;
const rerank = (inner: string, k: number) =>
  `SELECT * FROM (SELECT id, content, metadata, embedding <=> $1::vector AS d FROM lab.corpus ORDER BY ${inner} LIMIT ${k}) s ORDER BY d LIMIT 10`;
const variants: Record<string, Variant> = {
  vector: {
    index: 'USING hnsw (embedding vector_cosine_ops)',
    query: (v) => [
      'SELECT id, content, metadata, embedding <=> $1::vector AS d FROM lab.corpus ORDER BY embedding <=> $1::vector LIMIT 10',
      [v],
    ],
  },
  half: {
    index: `USING hnsw ((embedding::${H}) halfvec_cosine_ops)`,
    query: (v) => [
      `SELECT id, content, metadata, embedding <=> $1::vector AS d FROM lab.corpus ORDER BY embedding::${H} <=> $1::${H} LIMIT 10`,
      [v],
    ],
  },
  half32: {
    index: `USING hnsw ((embedding::${H}) halfvec_cosine_ops) WITH (ef_construction = 32)`,
    query: (v) => [
      `SELECT id, content, metadata, embedding <=> $1::vector AS d FROM lab.corpus ORDER BY embedding::${H} <=> $1::${H} LIMIT 10`,
      [v],
    ],
  },
  halfrr: {
    index: `USING hnsw ((embedding::${H}) halfvec_cosine_ops)`,
    query: (v) => [rerank(`embedding::${H} <=> $1::${H}`, 40), [v]],
  },
  bq: {
    index: `USING hnsw ((binary_quantize(embedding)::bit(${DIMENSION})) bit_hamming_ops)`,
    query: (v) => [
      rerank(`binary_quantize(embedding)::bit(${DIMENSION}) <~> binary_quantize($1::vector)`, 100),
      [v],
    ],
  },
  ivf100: {
    index: `USING ivfflat ((embedding::${H}) halfvec_cosine_ops) WITH (lists = 100)`,
    query: (v) => [
      `SELECT id, content, metadata, embedding <=> $1::vector AS d FROM lab.corpus ORDER BY embedding::${H} <=> $1::${H} LIMIT 10`,
      [v],
    ],
  },
  ivf316: {
    index: `USING ivfflat ((embedding::${H}) halfvec_cosine_ops) WITH (lists = 316)`,
    query: (v) => [
      `SELECT id, content, metadata, embedding <=> $1::vector AS d FROM lab.corpus ORDER BY embedding::${H} <=> $1::${H} LIMIT 10`,
      [v],
    ],
  },
  ivf: {
    index: `USING ivfflat ((embedding::${H}) halfvec_cosine_ops) WITH (lists = 300)`,
    query: (v) => [
      `SELECT id, content, metadata, embedding <=> $1::vector AS d FROM lab.corpus ORDER BY embedding::${H} <=> $1::${H} LIMIT 10`,
      [v],
    ],
  },
};

/** `half-m<M>-ef<EF>`: the store's halfvec HNSW with other build parameters. */
function variantOf(name: string): Variant {
  const sk = /^sk(v?)-n(\d+)(?:-m(\d+)-ef(\d+))?$/.exec(name);
  if (sk) {
    // sk: the sketch as halfvec; skv: as vector (full precision).
    const sketch = sketchOf(DIMENSION, SKETCH);
    const column = sk[1] ? `(sketch::vector(${SKETCH}))` : 'sketch';
    const type = sk[1] ? `vector(${SKETCH})` : `halfvec(${SKETCH})`;
    return {
      index: `USING hnsw (${column} ${sk[1] ? 'vector' : 'halfvec'}_cosine_ops) WITH (m = ${sk[3] ?? 16}, ef_construction = ${sk[4] ?? 64})`,
      query: (v) => [
        rerank(`${column} <=> $2::${type}`, Number(sk[2])),
        [v, `[${Array.from(sketch(JSON.parse(v) as number[])).join(',')}]`],
      ],
    };
  }
  const bits = /^bits-n(\d+)(?:-m(\d+)-ef(\d+))?$/.exec(name);
  if (bits) {
    return {
      index: `USING hnsw (bits bit_hamming_ops) WITH (m = ${bits[2] ?? 16}, ef_construction = ${bits[3] ?? 64})`,
      query: (v) => [
        rerank(`bits <~> $2::bit(${SKETCH_BITS})`, Number(bits[1])),
        [v, bitSketch(JSON.parse(v) as number[])],
      ],
    };
  }
  const ivfBits = /^bivf-l(\d+)-n(\d+)$/.exec(name);
  if (ivfBits) {
    return {
      index: `USING ivfflat (bits bit_hamming_ops) WITH (lists = ${ivfBits[1]})`,
      query: (v) => [
        rerank(`bits <~> $2::bit(${SKETCH_BITS})`, Number(ivfBits[2])),
        [v, bitSketch(JSON.parse(v) as number[])],
      ],
    };
  }
  const tuned = /^half-m(\d+)-ef(\d+)$/.exec(name);
  if (!tuned) return variants[name]!;
  return {
    ...variants.half!,
    index: `USING hnsw ((embedding::${H}) halfvec_cosine_ops) WITH (m = ${tuned[1]}, ef_construction = ${tuned[2]})`,
  };
}

for (const spec of VARIANTS) {
  const [name, ...sets] = spec.split(':');
  const variant = variantOf(name!);
  await client.query('DROP INDEX IF EXISTS lab.lab_idx');
  await client.query(`SET maintenance_work_mem = '${process.env.LAB_MEMORY ?? '1500MB'}'`);
  await client.query(`SET max_parallel_maintenance_workers = ${process.env.LAB_WORKERS ?? 2}`);
  await client.query(`ALTER TABLE lab.corpus SET (parallel_workers = ${process.env.LAB_WORKERS ?? 2})`);
  const started = performance.now();
  await client.query(`CREATE INDEX lab_idx ON lab.corpus ${variant.index}`);
  const build = (performance.now() - started) / 1000;
  const isize = (await client.query("SELECT pg_size_pretty(pg_relation_size('lab.lab_idx')) s")).rows[0].s;
  for (const set of sets.length ? sets : ['']) {
    if (set) for (const s of set.split(';')) await client.query(`SET ${s}`);
    const times: number[] = [];
    let recall = 0;
    for (let q = 0; q < QUERIES; q++) {
      const [text, params] = variant.query(vectors[q]!);
      const t0 = performance.now();
      const rows = (await client.query(text, params)).rows as { content: string }[];
      times.push(performance.now() - t0);
      recall += exact.recall(
        questions[q]!,
        rows.map((r) => markerOf(r.content)),
        10,
      );
    }
    console.log(
      JSON.stringify({
        variant: name,
        set,
        build_s: Number(build.toFixed(1)),
        index_size: isize,
        p50: Number(percentile(times, 50).toFixed(2)),
        p99: Number(percentile(times, 99).toFixed(2)),
        recall: Number((recall / QUERIES).toFixed(4)),
      }),
    );
  }
}
await client.end();
