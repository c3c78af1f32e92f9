// bench/knowledge: RAG through Atelier's API, as an integrator meets it. The API runs in a process of its
// own on PostgreSQL (DATABASE_URL; BENCH_DB=postgres) or embedded PGlite (BENCH_DB=pglite), ingesting in
// process; embeddings (1,536 dimensions) come from the fake provider in another process.
// 1. BENCH_CHUNKS chunks (100,000) as 2 x BENCH_CHUNKS/100 uploaded documents of 50 chunks (half .md,
//    half .txt) are ingested: ingest_chunks_per_s = chunks / (first upload .. last document ready and the
//    collection's vector index built), with /health called every 50 ms meanwhile (corpus_health_*: the
//    product keeps answering while a corpus is ingested and indexed); ready_chunks_per_s = chunks / (first
//    upload .. last document ready: stored and searchable, exactly, while the index is being built).
// 2. BENCH_QUERIES top-10 queries through POST /rag_collections/{id}/query (query_p50/p99_ms, the
//    client's wall time: HTTP, the metered query embedding, the search); recall_at_10 against exact
//    search computed by the bench itself (ties counted fairly); on PostgreSQL the same search straight
//    in SQL (over the collection's HNSW index, with the store's breadth: see directTimes) is timed beside
//    it (direct_query_*_ms, the vector already known), with the index's size beside shared_buffers
//    (index_mb, shared_buffers_mb): an index that does not fit is read from the OS for every search.
//    20 top-80 queries (wide_query_p50_ms): wider than the default breadth, where the planner would
//    scan every row unless the store keeps it on the index. 50 hybrid top-10 queries (vector + the
//    full-text search of the question's keywords, fused): hybrid_query_p50/p99_ms; how often the
//    paragraph a question was drawn from is in its top-10, by vector search alone (the timed questions)
//    and by hybrid (vector_found_at_10, hybrid_found_at_10). Each phase asks questions of its own; then
//    the first 50 timed questions are asked again (repeat_query_p50_ms): their embeddings are kept by the
//    API (the recent questions' cache), so no provider call.
// 3. A filter matching the 1,000 (BENCH_CHUNKS/100) .md documents: 50 queries each answer 10 matching
//    chunks, and their recall against exact filtered search averages at least 0.9. Then a field given to
//    100 documents at once (5,000 chunks written in place: fields_5000_chunks_ms; the same again, nothing
//    to write: fields_again_ms) and a query filtered by it answering only their chunks (fields_filter_ok).
// 4. BENCH_PDF_MB of 10 MB PDFs (200) are uploaded and ingested while /health is called every 50 ms (by a
//    process of its own, health-probe.ts: the bench's loop is busy uploading), a
//    chat streams answer after answer and the API's RSS is sampled: ingest_health_p99_ms (beside
//    idle_health_p99_ms, the same calls for 10 s before), ingest_rss_peak_mb, ingest_chat_answers.
// Before it all, how fast the machine is right now (machine_js_ms, machine_loopback_rtt_ms: see
// ../shared/machine.ts). Last line: one JSON object.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SKETCH_CANDIDATES, sketchProbe, type SketchKind } from '@atelier/knowledge';
import { bagOfWordsEmbedding } from '@atelier/testkit';
import pg from 'pg';
import { api, firstLine, launchApi, login, root, start, stopAll } from '../shared/processes';
import { machineSpeed } from '../shared/machine';
import { percentile, readEvents } from '../shared/stats';
import { CHUNK_SIZE, DIMENSION, ExactIndex, largePdf, paragraph, question } from './corpus';

const DB = process.env.BENCH_DB ?? (process.env.DATABASE_URL ? 'postgres' : 'pglite');
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const PDF_MB = Number(process.env.BENCH_PDF_MB ?? 200);
const CHUNKS_PER_DOC = 50;
const DOCS = Math.ceil(CHUNKS / CHUNKS_PER_DOC);
const FILES_PER_UPLOAD = 20;
const MD = 1;
const kindOf = (doc: number) => (doc < DOCS / 2 ? MD : 0);
const log = (...args: unknown[]) => console.error(`[${new Date().toISOString().slice(11, 19)}]`, ...args);

interface Doc {
  id: string;
  filename: string;
  status: string;
  chunk_count: number;
  error: string | null;
}
interface Hit {
  id: string;
  content: string;
  score: number;
  metadata: Record<string, unknown>;
}

if (DB === 'postgres' && !process.env.DATABASE_URL) throw new Error('BENCH_DB=postgres needs DATABASE_URL');

function documentText(doc: number): string {
  const first = doc * CHUNKS_PER_DOC;
  const last = Math.min(CHUNKS, first + CHUNKS_PER_DOC);
  return Array.from({ length: last - first }, (_, i) => paragraph(first + i)).join('\n\n');
}

async function uploadFiles(base: string, token: string, collection: string, files: [string, Blob][]) {
  const form = new FormData();
  for (const [name, blob] of files) form.append('file', blob, name);
  const res = await fetch(`${base}/rag_collections/${collection}/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 202) throw new Error(`upload: ${res.status} ${await res.text()}`);
}

/** Uploads `count` files, `inFlight` requests at a time. */
async function uploadAll(
  base: string,
  token: string,
  collection: string,
  count: number,
  perRequest: number,
  inFlight: number,
  file: (i: number) => Promise<[string, Blob]> | [string, Blob],
) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const start = next;
      next = Math.min(count, next + perRequest);
      const files = await Promise.all(Array.from({ length: next - start }, (_, k) => file(start + k)));
      await uploadFiles(base, token, collection, files);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

/** Waits until every document of the collection is ready (a failure stops the bench). */
async function waitReady(base: string, token: string, collection: string, expected: number): Promise<Doc[]> {
  let lastLog = 0;
  for (;;) {
    const { documents } = await api<{ documents: Doc[] }>(
      base,
      token,
      'GET',
      `/rag_collections/${collection}/documents`,
    );
    const failed = documents.find((d) => d.status === 'failed');
    if (failed) throw new Error(`${failed.filename} failed: ${failed.error}`);
    const ready = documents.filter((d) => d.status === 'ready');
    if (documents.length >= expected && ready.length === documents.length) return documents;
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      const chunks = documents.reduce((sum, d) => sum + d.chunk_count, 0);
      log(`ingesting: ${ready.length}/${expected} documents ready, ${chunks} chunks stored`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

const markerOf = (hit: Hit) => Number(/u(\d+)\.$/.exec(hit.content.trim())?.[1] ?? -1);

async function query(base: string, token: string, collection: string, body: object) {
  const started = performance.now();
  const answer = await api<{ documents: Hit[]; took_ms: number }>(
    base,
    token,
    'POST',
    `/rag_collections/${collection}/query`,
    body,
  );
  return { ms: performance.now() - started, hits: answer.documents, took: answer.took_ms };
}

/**
 * The same top-10 straight in SQL, as a DBA would write it over the collection's HNSW index with the
 * store's breadth, for comparison: over the sketch of wide embeddings, its 300 nearest ordered by the
 * full vectors (`sketch_*` collections), or over the vectors cast to halfvec (ef_search 150).
 */
async function directTimes(
  collectionName: string,
  texts: string[],
): Promise<{ times: number[]; memory: { index_mb: number; shared_buffers_mb: number } }> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const table = `kb."${collectionName.replaceAll('"', '""')}"`;
  // The index's size beside shared_buffers: a search reads the index page by page, so its time depends
  // on whether the index fits there (the query figures are read with it).
  const { rows } = await client.query<{ index_mb: number; shared_buffers_mb: number }>(
    `SELECT round(pg_relation_size(to_regclass($1)) / 1048576.0)::int AS index_mb,
            (SELECT (setting::bigint * 8192 / 1048576)::int FROM pg_settings WHERE name = 'shared_buffers') AS shared_buffers_mb`,
    [`kb."_${collectionName.replaceAll('"', '""')}_hnsw"`],
  );
  const kind = (
    await client.query<{ kind: string | null }>(
      'SELECT vector_index AS kind FROM kb._collections WHERE name = $1',
      [collectionName],
    )
  ).rows[0]?.kind;
  const probe = kind?.startsWith('sketch_')
    ? sketchProbe(kind as SketchKind, 'cosine', DIMENSION)
    : undefined;
  await client.query(`SET hnsw.ef_search = ${probe ? SKETCH_CANDIDATES : 150}`);
  const half = `halfvec(${DIMENSION})`;
  const times: number[] = [];
  for (const text of texts) {
    const embedding = bagOfWordsEmbedding(text, DIMENSION);
    const vector = `[${embedding.join(',')}]`;
    const started = performance.now();
    if (probe) {
      await client.query(
        `SELECT * FROM (SELECT id, content, metadata, embedding <=> $1::vector AS d FROM ${table}
           ORDER BY sketch ${probe.op} $2::${probe.type} LIMIT ${SKETCH_CANDIDATES}) s ORDER BY d LIMIT 10`,
        [vector, probe.literal(embedding)],
      );
    } else {
      await client.query(
        `SELECT id, content, metadata FROM ${table} ORDER BY embedding::${half} <=> $1::${half} LIMIT 10`,
        [vector],
      );
    }
    times.push(performance.now() - started);
  }
  await client.end();
  return { times, memory: rows[0]! };
}

/** /health every 50 ms from a process of its own (see health-probe.ts): stop() answers the latencies. */
async function watchHealth(base: string): Promise<() => Promise<number[]>> {
  const probe = start(['health-probe.ts', base], {}, join(root, 'bench', 'knowledge'));
  let out = '';
  probe.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const closed = new Promise((resolve) => probe.once('exit', resolve));
  while (!out.includes('ready')) await new Promise((r) => setTimeout(r, 20));
  return async (): Promise<number[]> => {
    probe.kill('SIGTERM');
    await closed;
    return JSON.parse(out.split('\n')[1]!) as number[];
  };
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Chats one answer after another until `stop`; answers how many completed and their first-token times. */
async function chatLoop(base: string, token: string, chatbot: string, stop: { done: boolean }) {
  const ttft: number[] = [];
  let failures = 0;
  while (!stop.done) {
    const { conversation_id } = await api<{ conversation_id: string }>(
      base,
      token,
      'POST',
      '/chat-interface/conversations',
      { title: 'bench', chatbot_id: chatbot },
    );
    const started = performance.now();
    const res = await fetch(`${base}/chat-interface/conversations/${conversation_id}/simple/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: 'say something about lighthouses please' }],
      }),
    });
    let first = NaN;
    if (res.ok) {
      await readEvents(res, (data, at) => {
        if (data.startsWith('{"type":"text"') && Number.isNaN(first)) first = at - started;
      });
    }
    if (Number.isNaN(first)) failures++;
    else ttft.push(first);
  }
  return { ttft, failures };
}

async function main() {
  const machine = await machineSpeed();
  log(`machine: ${JSON.stringify(machine)}`);
  const fake = start(['fake.ts'], {}, join(root, 'bench', 'knowledge'));
  const fakeUrl = await firstLine(fake);
  const { base, child } = await launchApi({
    DATABASE_URL: DB === 'postgres' ? process.env.DATABASE_URL : '',
    REDIS_URL: '',
    INGEST_DOCUMENTS: 'true',
    // A slow machine can take longer than the default 15 minutes: the bench's one login must last.
    ACCESS_TOKEN_TTL_SECONDS: '21600',
  });
  const token = await login(base);
  const { workspace_id } = await api<{ workspace_id: string }>(base, token, 'POST', '/workspaces', {
    name: 'Knowledge bench',
  });
  const { provider_id } = await api<{ provider_id: string }>(base, token, 'POST', '/providers', {
    workspace_id,
    name: 'Fake',
    kind: 'openai_compatible',
    base_url: `${fakeUrl}/v1`,
    api_key: 'test-key',
  });
  const model = (model_name: string, model_type: string) =>
    api<{ model_id: string }>(base, token, 'POST', '/models', {
      workspace_id,
      provider_id,
      model_name,
      model_type,
    });
  const { model_id: embeddings } = await model('text-embedding-3-small', 'text-embeddings');
  const { model_id: llm } = await model('gpt-4o-mini', 'llm');
  const collection = (name: string) =>
    api<{ id: string }>(base, token, 'POST', '/rag_collections', {
      workspace_id,
      name,
      embeddings_model_id: embeddings,
      chunk_size: CHUNK_SIZE,
      chunk_overlap: 0,
      top_k: 10,
    });
  const main = await collection('Bench corpus');

  // 1. Ingestion.
  log(`ingesting ${CHUNKS} chunks as ${DOCS} documents into ${DB}`);
  // The product must keep answering while a whole corpus is ingested and indexed.
  const stopCorpusHealth = await watchHealth(base);
  const ingestStart = performance.now();
  await uploadAll(base, token, main.id, DOCS, FILES_PER_UPLOAD, 2, (doc) => [
    `doc-${doc}.${kindOf(doc) === MD ? 'md' : 'txt'}`,
    new Blob([documentText(doc)], { type: kindOf(doc) === MD ? 'text/markdown' : 'text/plain' }),
  ]);
  const docs = await waitReady(base, token, main.id, DOCS);
  const readySeconds = (performance.now() - ingestStart) / 1000;
  // The vector index is built once the ingestion is written: ingestion ends when it is there.
  log(`documents ready after ${readySeconds.toFixed(1)} s; waiting for the vector index`);
  for (;;) {
    const { rag_collection } = await api<{ rag_collection: { vector_indexed: boolean | null } }>(
      base,
      token,
      'GET',
      `/rag_collections/${main.id}`,
    );
    if (rag_collection.vector_indexed !== false) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const ingestSeconds = (performance.now() - ingestStart) / 1000;
  const corpusHealth = await stopCorpusHealth();
  const stored = docs.reduce((sum, d) => sum + d.chunk_count, 0);
  log(`ingested ${stored} chunks in ${ingestSeconds.toFixed(1)} s`);

  // 2. Queries, and recall against exact search.
  const exact = new ExactIndex(CHUNKS, (chunk) => kindOf(Math.floor(chunk / CHUNKS_PER_DOC)));
  const asked = Array.from({ length: QUERIES }, (_, q) => question(q, CHUNKS));
  const questions = asked.map((q) => q.text);
  // Each phase asks questions of its own: a question asked again is searched with its kept embedding
  // (the API's recent questions' cache), which only the repeat phase measures.
  const fresh = (phase: number, count: number) =>
    Array.from({ length: count }, (_, q) => question(phase * 100_000 + q, CHUNKS));
  for (const { text } of fresh(1, 10)) await query(base, token, main.id, { query: text, top_k: 10 });
  const times: number[] = [];
  const took: number[] = [];
  let recall = 0;
  // How often the paragraph a question was drawn from is among the 10 chunks answered.
  let vectorFound = 0;
  for (const [q, text] of questions.entries()) {
    const { ms, hits, took: tookMs } = await query(base, token, main.id, { query: text, top_k: 10 });
    times.push(ms);
    took.push(tookMs);
    recall += exact.recall(text, hits.map(markerOf), 10);
    if (hits.map(markerOf).includes(asked[q]!.target)) vectorFound += 1 / questions.length;
  }
  // The first 50 questions asked again: their embeddings are kept, so no provider call.
  const repeated: number[] = [];
  for (const text of questions.slice(0, 50)) {
    repeated.push((await query(base, token, main.id, { query: text, top_k: 10 })).ms);
  }
  const { rag_collection } = await api<{ rag_collection: { collection_name: string } }>(
    base,
    token,
    'GET',
    `/rag_collections/${main.id}`,
  );
  const measured = DB === 'postgres' ? await directTimes(rag_collection.collection_name, questions) : null;
  const direct = measured?.times ?? [];
  // Wider searches (top-80: ef_search 320), which the planner would answer by scanning every row.
  const wide: number[] = [];
  for (const { text } of fresh(2, 20)) {
    const { ms, hits } = await query(base, token, main.id, { query: text, top_k: 80 });
    if (hits.length !== 80) throw new Error(`top-80 query answered ${hits.length} chunks`);
    wide.push(ms);
  }
  // Hybrid top-10 (the vector search fused with the full-text search of the question's keywords): 50
  // questions of its own, timed, and how often their paragraph is found, beside the vector search alone.
  const hybrid: number[] = [];
  let hybridFound = 0;
  for (const { text, target } of fresh(3, 50)) {
    const { ms, hits } = await query(base, token, main.id, { query: text, top_k: 10, hybrid: true });
    hybrid.push(ms);
    if (hits.map(markerOf).includes(target)) hybridFound += 1 / 50;
  }

  // 3. A filter matching 1,000 documents.
  // Every filtered query answers 10 chunks, all matching, and their recall against exact filtered search
  // averages 0.9 or more (a question about another topic than the 1,000 documents' is the hard case).
  let filterOk = true;
  let filterRecall = 0;
  const filtered = questions.slice(0, 50);
  for (const text of filtered) {
    const { hits } = await query(base, token, main.id, {
      query: text,
      top_k: 10,
      filter: { field: 'type', op: 'eq', value: 'markdown' },
    });
    const allMd = hits.every((hit) => hit.metadata.type === 'markdown');
    const recallOf = exact.recall(text, hits.map(markerOf), 10, MD);
    filterRecall += recallOf / filtered.length;
    if (hits.length !== 10 || !allMd) {
      filterOk = false;
      log(`filtered query: ${hits.length} hits, all markdown: ${allMd}`);
    }
  }
  filterOk &&= filterRecall >= 0.9;

  // 3b. Fields given to 100 documents (5,000 chunks) at once: written on their chunks in place in the
  // indexed collection (each changed row is indexed again), then the same again (nothing to write), and
  // a query filtered by the field answers only their chunks.
  const tagged = docs.slice(0, 100).map((d) => d.id);
  const setFields = async () => {
    const started = performance.now();
    await api(base, token, 'PATCH', `/rag_collections/${main.id}/documents`, {
      document_ids: tagged,
      set: { team: 'bench' },
    });
    return performance.now() - started;
  };
  const fieldsMs = await setFields();
  const fieldsAgainMs = await setFields();
  const byField = await query(base, token, main.id, {
    query: questions[0]!,
    top_k: 10,
    filter: { field: 'team', op: 'eq', value: 'bench' },
  });
  const taggedIds = new Set(tagged);
  const fieldsFilterOk =
    byField.hits.length === 10 &&
    byField.hits.every((hit) => taggedIds.has(String(hit.metadata.document_id)));

  // 4. Large PDFs, while /health and a chat are watched.
  const pdfCount = Math.round(PDF_MB / 10);
  log(`making ${pdfCount} PDFs of 10 MB`);
  const pdfs = await Promise.all(
    Array.from({ length: pdfCount }, (_, i) => largePdf(i, 10 * 1024 * 1024, 20)),
  );
  const { id: chatbot } = await api<{ id: string }>(base, token, 'POST', '/chatbots', {
    workspace_id,
    name: 'Bench bot',
    type: 'simple',
  });
  await api(base, token, 'PUT', `/chatbots/${chatbot}/simple/config`, {
    instruction: 'Answer.',
    model_id: llm,
  });
  await api(base, token, 'POST', `/chatbots/${chatbot}/publish`);
  const pdfCollection = await collection('Bench PDFs');
  const stop = { done: false };
  let rssPeak = rssMb(child.pid!);
  const rssBefore = rssPeak;
  const rssTimer = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(child.pid!))), 100);
  // The same calls for 10 s before the PDFs: how this machine answers without ingestion (it may be shared).
  const stopIdle = await watchHealth(base);
  await new Promise((r) => setTimeout(r, 10_000));
  const idleHealth = await stopIdle();
  const stopHealth = await watchHealth(base);
  const chats = chatLoop(base, token, chatbot, stop);
  log(`ingesting ${pdfCount} PDFs (${PDF_MB} MB)`);
  const pdfStart = performance.now();
  await uploadAll(base, token, pdfCollection.id, pdfCount, 5, 2, (i) => [
    `scan-${i}.pdf`,
    new Blob([pdfs[i]!], { type: 'application/pdf' }),
  ]);
  await waitReady(base, token, pdfCollection.id, pdfCount);
  const pdfSeconds = (performance.now() - pdfStart) / 1000;
  stop.done = true;
  const health = await stopHealth();
  const chat = await chats;
  clearInterval(rssTimer);

  const round = (n: number, digits = 1) => Number(n.toFixed(digits));
  console.log(
    JSON.stringify({
      db: DB === 'postgres' ? 'postgres' : 'pglite',
      chunks: stored,
      documents: docs.length,
      dimension: DIMENSION,
      ingest_chunks_per_s: Math.round(stored / ingestSeconds),
      ready_chunks_per_s: Math.round(stored / readySeconds),
      ingest_seconds: round(ingestSeconds),
      ingest_index_build_seconds: round(ingestSeconds - readySeconds),
      corpus_health_p99_ms: round(percentile(corpusHealth, 99), 2),
      corpus_health_max_ms: round(Math.max(...corpusHealth), 2),
      query_p50_ms: round(percentile(times, 50), 2),
      query_p99_ms: round(percentile(times, 99), 2),
      query_retrieval_p50_ms: round(percentile(took, 50), 2),
      repeat_query_p50_ms: round(percentile(repeated, 50), 2),
      wide_query_p50_ms: round(percentile(wide, 50), 2),
      hybrid_query_p50_ms: round(percentile(hybrid, 50), 2),
      hybrid_query_p99_ms: round(percentile(hybrid, 99), 2),
      vector_found_at_10: round(vectorFound, 2),
      hybrid_found_at_10: round(hybridFound, 2),
      ...(direct.length
        ? {
            direct_query_p50_ms: round(percentile(direct, 50), 2),
            direct_query_p99_ms: round(percentile(direct, 99), 2),
          }
        : {}),
      ...(measured?.memory ?? {}),
      recall_at_10: round(recall / questions.length, 4),
      filter_1000_docs_ok: filterOk,
      filter_recall_at_10: round(filterRecall, 4),
      fields_5000_chunks_ms: round(fieldsMs),
      fields_again_ms: round(fieldsAgainMs),
      fields_filter_ok: fieldsFilterOk,
      pdf_mb: PDF_MB,
      pdf_ingest_seconds: round(pdfSeconds),
      idle_health_p99_ms: round(percentile(idleHealth, 99), 2),
      ingest_health_p99_ms: round(percentile(health, 99), 2),
      ingest_health_max_ms: round(Math.max(...health), 2),
      ingest_rss_before_mb: Math.round(rssBefore),
      ingest_rss_peak_mb: Math.round(rssPeak),
      ingest_chat_answers: chat.ttft.length,
      ingest_chat_failures: chat.failures,
      ingest_chat_ttft_p99_ms: round(percentile(chat.ttft, 99)),
      ...machine,
    }),
  );
}

try {
  await main();
} finally {
  stopAll();
}
