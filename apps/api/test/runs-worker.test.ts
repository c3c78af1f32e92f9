import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { messages, runs } from '@atelier/db';
import { RUN_CANCELLED, RUNNER_STOPPED } from '@atelier/runtime';
import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { finished, flowBot, readEvents, storyFlow } from './flows';
import { call, createOrg, fakeModel, testConfig, type Org } from './helpers';

// Runs on BullMQ with separate worker processes, as in production: the API only enqueues.
const REDIS_URL = process.env.REDIS_URL;
const DATABASE_URL = process.env.DATABASE_URL;
const workerDir = fileURLToPath(new URL('../../worker', import.meta.url));
const prefix = `atelier-wtest-${randomBytes(4).toString('hex')}`;

let fake: FakeProvider;
let app: FastifyInstance;
let base: string;
let org: Org;
let workflow: string;
let chatflow: string;
const workers: ChildProcess[] = [];

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
    cwd: workerDir,
    env: {
      ...process.env,
      DATABASE_URL,
      REDIS_URL,
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      QUEUE_PREFIX: prefix,
      RUN_LOCK_MS: '1500',
      RUN_CONCURRENCY: '5',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  workers.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('worker ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready: ${out}`)));
  });
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

describe.skipIf(!REDIS_URL || !DATABASE_URL)('runs on separate workers (BullMQ)', () => {
  beforeAll(async () => {
    fake = await startFakeProvider({ apiKey: 'test-key', tokenDelayMs: 5 });
    app = await buildApp({
      config: testConfig({ RUN_WORKER_IN_API: 'false', QUEUE_PREFIX: prefix }),
      database: await sharedTestDatabase(),
      logger: false,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    org = await createOrg(app);
    const ws = await org.workspace(org.admin, 'Workers');
    const { modelId } = await fakeModel(app, org, ws, fake.url);
    workflow = await flowBot(app, org, ws, 'workflow', storyFlow(modelId));
    chatflow = await flowBot(app, org, ws, 'chatflow', storyFlow(modelId, { mandatoryTopic: false }));
  }, 60_000);
  afterAll(async () => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    await app?.close();
    await fake?.close();
  });

  const start = async (topic: string) =>
    (
      await call(app, 'POST', `/chatbots/${workflow}/runs`, {
        token: org.admin.token,
        body: { inputs: { topic } },
      })
    ).body.run_id as string;
  const events = (runId: string) =>
    fetch(`${base}/runs/${runId}/events`, { headers: { authorization: `Bearer ${org.admin.token}` } });

  it('a chat run cancelled while queued (no worker running) answers the question with the error', async () => {
    const conversation = (
      await call(app, 'POST', '/chat-interface/conversations', {
        token: org.admin.token,
        body: { title: '', chatbot_id: chatflow },
      })
    ).body.conversation_id as string;
    const asked = fetch(`${base}/chat-interface/conversations/${conversation}/chatflow/message`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input_data: { query: 'will anyone answer?' } }),
    });
    const runId = await until(async () => {
      const [row] = await app.db.select().from(runs).where(eq(runs.conversationId, conversation));
      return row?.id;
    });
    const cancel = await call(app, 'POST', `/runs/${runId}/cancel`, { token: org.admin.token });
    expect(cancel.body).toEqual({ run_id: runId, status: 'cancelled' });
    // The waiting client hears the end.
    const { events: seen, done } = await readEvents(await asked);
    expect(done).toBe(true);
    expect(seen.at(-1)!.event).toEqual({
      type: 'execution_error',
      run_id: runId,
      error: RUN_CANCELLED,
      status: 'cancelled',
    });
    const history = await call(app, 'GET', `/chat-interface/conversations/${conversation}/history`, {
      token: org.admin.token,
    });
    const stored = await app.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversation))
      .orderBy(asc(messages.createdAt));
    expect(stored.map((m) => [m.role, m.error, m.content])).toEqual([
      ['user', false, [{ type: 'text', text: 'will anyone answer?' }]],
      ['assistant', true, [{ type: 'text', text: `Error: ${RUN_CANCELLED}` }]],
    ]);
    expect(history.body.history).toHaveLength(2);
  }, 60_000);

  it('a worker process executes the run the API queued; the API relays its events', async () => {
    const worker = await startWorker();
    const runId = await start('bees');
    const { events: seen, done } = await readEvents(await events(runId));
    expect(done).toBe(true);
    expect(seen.at(-1)!.event).toMatchObject({
      type: 'execution_completed',
      final_output: 'Echo: Write about bees',
    });
    worker.kill('SIGTERM');
    expect(await exited(worker)).toBe(0);
  }, 60_000);

  it('a worker killed mid-run: the run is taken back and ended as failed with the reason', async () => {
    fake.setTokenDelay(200);
    try {
      const first = await startWorker();
      const runId = await start('a long and winding story about the sea, the wind and many stars');
      const stream = events(runId);
      await readEvents(await events(runId), (seen) => seen.some((s) => s.event.type === 'text'));
      first.kill('SIGKILL');
      await exited(first);
      const second = await startWorker();
      const run = await finished(app, org.admin.token, runId, 30_000);
      expect(run).toMatchObject({ status: 'failed', error: RUNNER_STOPPED });
      const { events: seen, done } = await readEvents(await stream);
      expect(done).toBe(true);
      expect(seen.at(-1)!.event).toMatchObject({ type: 'execution_error', error: RUNNER_STOPPED });
      // The input node had ended before the kill: its execution was written then, and is kept.
      expect(run.node_executions.map((e: { node_id: string }) => e.node_id)).toEqual(['input_in01']);
      second.kill('SIGTERM');
      await exited(second);
    } finally {
      fake.setTokenDelay(5);
    }
  }, 60_000);

  it('SIGTERM lets the running run finish before the worker leaves', async () => {
    fake.setTokenDelay(40);
    try {
      const worker = await startWorker();
      const runId = await start('the patient owl');
      await readEvents(await events(runId), (seen) => seen.some((s) => s.event.type === 'text'));
      worker.kill('SIGTERM');
      expect(await exited(worker)).toBe(0);
      const run = await finished(app, org.admin.token, runId);
      expect(run).toMatchObject({ status: 'succeeded', final_output: 'Echo: Write about the patient owl' });
    } finally {
      fake.setTokenDelay(5);
    }
  }, 60_000);
});
