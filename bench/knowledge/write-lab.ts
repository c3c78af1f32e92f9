// bench/knowledge write lab: the built-in store's write path alone, as ingestion drives it. LAB_CHUNKS
// (30,000) chunks of the bench corpus (1,536-d, embedded beforehand) are upserted 50 at a time (one
// document each) from LAB_LANES (3) lanes into a collection whose vector index is deferred, in schema
// kb_lab of DATABASE_URL (dropped first). Printed: wall time, chunks/s, the CPU seconds PostgreSQL's
// processes and this one spent, the table's size. Variants: LAB_COMPRESSION=pglz|lz4 (the vectors'
// compression; default: the store's choice), LAB_TSV=0 (without the full-text index).
// Measured (60,000 chunks, 2 cores, six runs each): PostgreSQL's CPU 7.1-11.8 s with pglz (median 8.3),
// 5.1-8.4 s with lz4 (median 6.3); without the full-text index, no difference beyond the noise.
import { execSync } from 'node:child_process';
import { openDatabase } from '@atelier/db';
import { createPgvectorStore, toSqlClient } from '@atelier/knowledge';
import { bagOfWordsEmbedding } from '@atelier/testkit';
import { DIMENSION, paragraph } from './corpus';

const CHUNKS = Number(process.env.LAB_CHUNKS ?? 30_000);
const LANES = Number(process.env.LAB_LANES ?? 3);
const COMPRESSION = process.env.LAB_COMPRESSION;
const database = await openDatabase({ url: process.env.DATABASE_URL, poolSize: LANES + 1 });
const sql = toSqlClient(database.db);
const store = createPgvectorStore(sql, { schema: 'kb_lab' });
await sql.query('DROP SCHEMA IF EXISTS kb_lab CASCADE');
await store.createCollection({ name: 'lab', dimension: DIMENSION, deferVectorIndex: true });
const table = 'kb_lab."lab"';
if (COMPRESSION === 'pglz' || COMPRESSION === 'lz4') {
  for (const column of ['embedding', 'sketch']) {
    await sql.query(`ALTER TABLE ${table} ALTER COLUMN ${column} SET COMPRESSION ${COMPRESSION}`);
  }
}
if (process.env.LAB_TSV === '0') await sql.query('DROP INDEX kb_lab."_lab_tsv"');

const documents = Array.from({ length: Math.ceil(CHUNKS / 50) }, (_, d) =>
  Array.from({ length: Math.min(50, CHUNKS - d * 50) }, (_, k) => {
    const content = paragraph(d * 50 + k);
    return {
      id: `d${d}:${k}`,
      content,
      embedding: bagOfWordsEmbedding(content, DIMENSION),
      metadata: { document_id: `d${d}`, chunk_index: k },
    };
  }),
);

/** CPU seconds of every PostgreSQL process alive (user + system, from /proc). */
const serverCpu = () =>
  Number(
    execSync(
      "for p in $(pgrep -f '^postgres'); do cut -d' ' -f14,15 /proc/$p/stat 2>/dev/null; done | awk '{s+=$1+$2} END {print s/100}'",
    ).toString(),
  );
const serverBefore = serverCpu();
const ownBefore = process.cpuUsage();
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: LANES }, async () => {
    while (next < documents.length) await store.upsert('lab', documents[next++]!);
  }),
);
const seconds = (performance.now() - started) / 1000;
const own = process.cpuUsage(ownBefore);
const [sized] = await sql.query<{ size: string }>(`SELECT pg_size_pretty(pg_table_size('${table}')) AS size`);
console.log(
  JSON.stringify({
    compression: COMPRESSION ?? 'store',
    tsv_index: process.env.LAB_TSV !== '0',
    chunks: CHUNKS,
    seconds: Number(seconds.toFixed(2)),
    chunks_per_s: Math.round(CHUNKS / seconds),
    server_cpu_s: Number((serverCpu() - serverBefore).toFixed(2)),
    own_cpu_s: Number(((own.user + own.system) / 1e6).toFixed(2)),
    table_size: sized?.size,
  }),
);
await sql.query('DROP SCHEMA kb_lab CASCADE');
await database.close();
