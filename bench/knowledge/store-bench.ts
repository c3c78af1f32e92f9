// bench/knowledge: the built-in vector store (pgvector) on PostgreSQL (DATABASE_URL) and on PGlite.
// CHUNKS clustered 1,536-d chunks from a seeded generator are bulk-loaded (bulkLoad: the HNSW index is
// built once after the rows), then QUERIES top-10 queries are timed, their recall@10 measured against
// exact search (the same ORDER BY distance with index scans off: a sequential scan), and a filter
// matching 1,000 chunks (1%) must still answer its exact top-10.
// Env: DATABASE_URL (else PostgreSQL is skipped), BENCH_CHUNKS (100000), BENCH_PGLITE_CHUNKS (BENCH_CHUNKS),
// BENCH_QUERIES (200), BENCH_DBS (postgres,pglite), BENCH_BULK (1; 0: plain upserts of 2,000 chunks).
// One JSON line per database; index_build_seconds is the part of ingest_seconds spent in CREATE INDEX.
import { openDatabase, type Database } from '@atelier/db';
import {
  createPgvectorStore,
  toSqlClient,
  type ChunkInput,
  type PgvectorStore,
  seeded,
  type QueryFn,
  type SqlClient,
} from '@atelier/knowledge';
import { percentile } from '../shared/stats';

const DIMENSION = 1536;
const CLUSTERS = 200;
const BATCH = 2_000;
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
const PGLITE_CHUNKS = Number(process.env.BENCH_PGLITE_CHUNKS ?? CHUNKS);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const DBS = (process.env.BENCH_DBS ?? 'postgres,pglite').split(',');
const BULK = process.env.BENCH_BULK !== '0';

const centers = Array.from({ length: CLUSTERS }, (_, c) => {
  const random = seeded(1_000_003 * (c + 1));
  return Array.from({ length: DIMENSION }, () => random() * 2 - 1);
});

/** A point near cluster `cluster`'s centre; `seed` picks the noise. */
function near(cluster: number, seed: number, spread: number): number[] {
  const random = seeded(seed);
  const center = centers[cluster]!;
  return center.map((x) => x + (random() * 2 - 1) * spread);
}

function* batches(count: number): Generator<ChunkInput[]> {
  for (let start = 0; start < count; start += BATCH) {
    const batch: ChunkInput[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      batch.push({
        id: `doc-${Math.floor(i / 10)}:${i % 10}`,
        content: `Chunk ${i} of cluster ${i % CLUSTERS}`,
        embedding: near(i % CLUSTERS, i + 1, 1.2),
        // bucket: 100 values, so one value matches 1% of the chunks (1,000 of 100,000).
        metadata: { document_id: `doc-${Math.floor(i / 10)}`, chunk_index: i % 10, bucket: (i * 7) % 100 },
      });
    }
    yield batch;
  }
}

async function run(label: string, database: Database, count: number) {
  const sql = toSqlClient(database.db);
  // The store's statements, with the time spent building indexes summed apart.
  let indexSeconds = 0;
  const timed =
    (query: QueryFn): QueryFn =>
    async (text, params) => {
      const started = performance.now();
      try {
        return await query(text, params);
      } finally {
        if (text.startsWith('CREATE INDEX')) indexSeconds += (performance.now() - started) / 1000;
      }
    };
  const client: SqlClient = {
    ...sql,
    query: timed(sql.query),
    transaction: <T>(fn: (query: QueryFn) => Promise<T>) => sql.transaction((query) => fn(timed(query))),
  };
  const store: PgvectorStore = createPgvectorStore(client, { schema: 'kb_bench' });
  await sql.query('DROP SCHEMA IF EXISTS kb_bench CASCADE');
  await store.createCollection({ name: 'bench', dimension: DIMENSION });

  const loadStart = performance.now();
  let loaded = 0;
  if (BULK) {
    loaded = await store.bulkLoad('bench', batches(count));
  } else {
    for (const batch of batches(count)) loaded += await store.upsert('bench', batch);
  }
  const loadSeconds = (performance.now() - loadStart) / 1000;

  const queries = Array.from({ length: QUERIES }, (_, q) => near((q * 37) % CLUSTERS, 1e9 + q, 1.2));
  const times: number[] = [];
  let found = 0;
  let relevant = 0;
  for (const vector of queries) {
    const started = performance.now();
    const hits = await store.query('bench', { vector, topK: 10 });
    times.push(performance.now() - started);
    const exact = await exactTop(sql, vector, '');
    const ids = new Set(hits.map((hit) => hit.id));
    found += exact.filter((id) => ids.has(id)).length;
    relevant += exact.length;
  }

  // A filter matching 1,000 chunks: the top-10 among them, as exact search has it.
  const filterVector = queries[0]!;
  const filtered = await store.query('bench', {
    vector: filterVector,
    topK: 10,
    filter: { field: 'bucket', op: 'eq', value: 42 },
  });
  const exactFiltered = await exactTop(sql, filterVector, `WHERE metadata @> '{"bucket": 42}'`);
  const filterOk =
    filtered.length === 10 &&
    filtered.every((hit) => hit.metadata.bucket === 42) &&
    exactFiltered.filter((id) => filtered.some((hit) => hit.id === id)).length >= 9;

  const result = {
    db: label,
    chunks: loaded,
    bulk: BULK,
    ingest_chunks_per_s: Math.round(loaded / loadSeconds),
    ingest_seconds: Number(loadSeconds.toFixed(1)),
    index_build_seconds: Number(indexSeconds.toFixed(1)),
    query_p50_ms: Number(percentile(times, 50).toFixed(2)),
    query_p99_ms: Number(percentile(times, 99).toFixed(2)),
    recall_at_10: Number((found / relevant).toFixed(4)),
    filter_1000_docs_ok: filterOk,
  };
  console.log(JSON.stringify(result));
  await sql.query('DROP SCHEMA IF EXISTS kb_bench CASCADE');
}

/** Exact top-10 ids: the same distance, with index scans off (a sequential scan and a sort). */
async function exactTop(
  sql: ReturnType<typeof toSqlClient>,
  vector: number[],
  where: string,
): Promise<string[]> {
  return sql.transaction(async (query) => {
    await query('SET LOCAL enable_indexscan = off');
    await query('SET LOCAL enable_bitmapscan = off');
    const rows = await query<{ id: string }>(
      `SELECT id FROM kb_bench.bench ${where} ORDER BY embedding <=> $1::vector, id LIMIT 10`,
      [`[${vector.join(',')}]`],
    );
    return rows.map((row) => row.id);
  });
}

if (DBS.includes('postgres')) {
  if (process.env.DATABASE_URL) {
    const database = await openDatabase({ url: process.env.DATABASE_URL, poolSize: 2 });
    await run('postgresql', database, CHUNKS);
    await database.close();
  } else {
    console.warn('DATABASE_URL is not set: PostgreSQL skipped');
  }
}
if (DBS.includes('pglite')) {
  const database = await openDatabase({});
  await run('pglite', database, PGLITE_CHUNKS);
  await database.close();
}
