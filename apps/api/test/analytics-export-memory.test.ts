import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Database } from '@atelier/db';
import { isolatedTestDatabase } from '@atelier/testkit';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createOrg, testConfig, type Org } from './helpers';

/**
 * An export streams: memory stays flat however many rows it writes. The live heap (measured after a
 * full collection, sampled while the export runs) is compared between 10,000 and 100,000 rows; RSS
 * too on PostgreSQL (on PGlite the database itself grows in this process).
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let database: Database;
let app: FastifyInstance;
let base: string;
let small: Org;
let large: Org;

/** Rows of about 600 bytes each, written by one statement. */
async function seed(org: Org, workspaceId: string, rows: number) {
  await app.db.execute(sql`
    insert into inference_logs (organization_id, workspace_id, chatbot_name, model_name, provider_model_name,
      provider_type, complete_prompt, user_message, response, request_words, response_words, first_token_ms,
      total_ms, streamed, status, created_at)
    select ${org.id}::uuid, ${workspaceId}::uuid, 'Bot', 'm1', 'gpt-4o-mini', 'openai',
      repeat('prompt, with "quotes" ', 10), 'question ' || g, repeat('answer ', 30), 20, 30, 50 + g % 100,
      200 + g % 1000, true, 'success', timestamptz '2025-04-01T00:00:00Z' + g * interval '1 second'
    from generate_series(1, ${rows}) as g`);
}

/** Exports over real HTTP, reading the body as it comes; answers bytes, lines and peak live heap growth. */
async function measure(org: Org) {
  gc();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakRss = before.rss;
  const sampler = setInterval(() => {
    gc();
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
  }, 25);
  const res = await fetch(
    `${base}/analytics/logs/export?from=2025-04-01T00:00:00Z&to=2025-05-01T00:00:00Z&format=csv`,
    { headers: { authorization: `Bearer ${org.admin.token}` } },
  );
  expect(res.status).toBe(200);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  clearInterval(sampler);
  return { bytes, lines, heapGrowth: peakHeap - before.heapUsed, rssGrowth: peakRss - before.rss };
}

beforeAll(async () => {
  database = await isolatedTestDatabase();
  app = await buildApp({ config: testConfig(), database, logger: false });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  small = await createOrg(app);
  large = await createOrg(app);
  await seed(small, await small.workspace(small.admin), 10_000);
  await seed(large, await large.workspace(large.admin), 100_000);
}, 300_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('a large export', () => {
  it('writes 100,000 rows with the live heap no larger than for 10,000', { timeout: 300_000 }, async () => {
    const tenK = await measure(small);
    const hundredK = await measure(large);
    console.info(
      `export 10k: ${tenK.bytes} bytes, heap +${tenK.heapGrowth}, rss +${tenK.rssGrowth}; ` +
        `100k: ${hundredK.bytes} bytes, heap +${hundredK.heapGrowth}, rss +${hundredK.rssGrowth}`,
    );
    // The header and one line per row (no field holds a line break).
    expect(tenK.lines).toBe(10_001);
    expect(hundredK.lines).toBe(100_001);
    expect(hundredK.bytes).toBeGreaterThan(9 * tenK.bytes);
    // Ten times the rows, not ten times the memory: the growth stays within a few batches' worth.
    expect(hundredK.heapGrowth).toBeLessThan(tenK.heapGrowth + 16 * 1024 * 1024);
    expect(hundredK.heapGrowth).toBeLessThan(hundredK.bytes / 4);
    // With PostgreSQL out of process, the whole process stays flat too.
    if (process.env.DATABASE_URL) {
      expect(hundredK.rssGrowth).toBeLessThan(tenK.rssGrowth + 32 * 1024 * 1024);
    }
  });
});
