import { randomBytes } from 'node:crypto';
import { runs } from '@atelier/db';
import { RUNNER_SHUT_DOWN } from '@atelier/runtime';
import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { flowBot, readEvents, storyFlow } from '../flows';
import { createOrg, fakeModel, testConfig, type Org } from '../helpers';
import { exited, killAll, spawnApi, spawnWorker, sseBlocks, type SseBlock } from './processes';

// SIGTERM sent to real API and worker processes (PostgreSQL + Redis, as in production): the API tells
// its open run streams to reconnect and leaves with 0, the client resumes on the other API with
// Last-Event-ID; a worker whose run outlasts the grace period ends it with the reason and leaves with 0.
const REDIS_URL = process.env.REDIS_URL;
const DATABASE_URL = process.env.DATABASE_URL;
const prefix = `atelier-stop-${randomBytes(4).toString('hex')}`;
const LONG_TOPIC = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');

let fake: FakeProvider;
let setup: FastifyInstance;
let org: Org;
let workflow: string;
const env = () => ({
  DATABASE_URL: DATABASE_URL!,
  REDIS_URL: REDIS_URL!,
  QUEUE_PREFIX: prefix,
  RUN_LOCK_MS: '3000',
});

/** Reads blocks until `stop` says so (the stream stays open), or to its end. */
async function take(blocks: AsyncGenerator<SseBlock>, stop: (block: SseBlock) => boolean = () => false) {
  const seen: SseBlock[] = [];
  for (;;) {
    const next = await blocks.next();
    if (next.done) return seen;
    seen.push(next.value);
    if (stop(next.value)) return seen;
  }
}
const isText = (block: SseBlock) => block.data.includes('"type":"text"');

const parse = (block: SseBlock) => JSON.parse(block.data) as { type: string } & Record<string, unknown>;

describe.skipIf(!REDIS_URL || !DATABASE_URL)('clean shutdown with real signals', () => {
  beforeAll(async () => {
    fake = await startFakeProvider({ apiKey: 'test-key', tokenDelayMs: 120 });
    setup = await buildApp({
      config: testConfig({ RUN_WORKER_IN_API: 'false', QUEUE_PREFIX: prefix }),
      database: await sharedTestDatabase(),
      logger: false,
    });
    org = await createOrg(setup);
    const ws = await org.workspace(org.admin, 'Shutdown');
    const { modelId } = await fakeModel(setup, org, ws, fake.url);
    workflow = await flowBot(setup, org, ws, 'workflow', storyFlow(modelId));
  }, 120_000);

  afterAll(async () => {
    killAll();
    await setup?.close();
    await fake?.close();
  });

  const startRun = (base: string) =>
    fetch(`${base}/chatbots/${workflow}/runs`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${org.admin.token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ inputs: { topic: LONG_TOPIC } }),
    });

  it('SIGTERM to an API: its run stream ends with a reconnect event, the client resumes on the other API, the API exits 0', async () => {
    const worker = await spawnWorker({ ...env(), RUN_CONCURRENCY: '4' });
    const a = await spawnApi({ ...env(), RUN_WORKER_IN_API: 'false' });
    const b = await spawnApi({ ...env(), RUN_WORKER_IN_API: 'false' });

    const blocks = sseBlocks(await startRun(a.base));
    const before = await take(blocks, isText);
    const runId = parse(before[0]!).run_id as string;
    const lastId = before.at(-1)!.id;
    expect(lastId).not.toBeNull();

    a.child.kill('SIGTERM');
    const after = await take(blocks);
    // The stream ended without [DONE]: its last word tells the client where and when to come back.
    const last = after.at(-1)!;
    expect(last.retry).toBe(1000);
    expect(last.id).toBeNull();
    expect(parse(last)).toEqual({
      type: 'reconnect',
      run_id: runId,
      last_event_id: after.at(-2)?.id ?? lastId,
      retry_ms: 1000,
    });
    expect(after.some((x) => x.data === '[DONE]')).toBe(false);
    expect(await exited(a.child)).toBe(0);

    // Resumed on the other API: the rest, without gaps or duplicates, to the end.
    const resumeFrom = (parse(last).last_event_id as string) ?? lastId!;
    const res = await fetch(`${b.base}/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${org.admin.token}`, 'last-event-id': resumeFrom },
    });
    const { events, done } = await readEvents(res);
    expect(done).toBe(true);
    const seenIds = [...before, ...after].flatMap((x) => (x.id ? [x.id] : []));
    for (const e of events) expect(seenIds).not.toContain(e.id);
    expect(events.at(-1)!.event).toMatchObject({
      type: 'execution_completed',
      final_output: `Echo: Write about ${LONG_TOPIC}`,
    });

    worker.kill('SIGTERM');
    expect(await exited(worker)).toBe(0);
    b.child.kill('SIGTERM');
    expect(await exited(b.child)).toBe(0);
  }, 300_000);

  it('SIGTERM to a worker whose run outlasts the grace period: the run ends with the reason, the worker exits 0', async () => {
    const worker = await spawnWorker({ ...env(), SHUTDOWN_GRACE_MS: '500' });
    const api = await spawnApi({ ...env(), RUN_WORKER_IN_API: 'false' });
    const blocks = sseBlocks(await startRun(api.base));
    const seen = await take(blocks, isText);
    const runId = parse(seen[0]!).run_id as string;
    worker.kill('SIGTERM');
    expect(await exited(worker)).toBe(0);
    // The client following the run hears its end at once (not after the run lock lapses).
    seen.push(...(await take(blocks)));
    expect(seen.at(-1)!.data).toBe('[DONE]');
    expect(parse(seen.at(-2)!)).toEqual({
      type: 'execution_error',
      run_id: runId,
      error: RUNNER_SHUT_DOWN,
      status: 'failed',
    });
    const [row] = await setup.db.select().from(runs).where(eq(runs.id, runId));
    expect([row!.status, row!.error]).toEqual(['failed', RUNNER_SHUT_DOWN]);
    api.child.kill('SIGTERM');
    expect(await exited(api.child)).toBe(0);
  }, 300_000);
});
