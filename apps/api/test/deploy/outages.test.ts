import type { AddressInfo } from 'node:net';
import { migrateDatabase, openDatabase, messages, runs, type Database } from '@atelier/db';
import { QUEUE_UNAVAILABLE } from '@atelier/runtime';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { echoFlow, flowBot, readEvents } from '../flows';
import { call, createOrg, testConfig, type Org } from '../helpers';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

// PostgreSQL and Redis stopped and started again under a running API: each sits behind a TCP proxy
// the test cuts (connections reset, new ones refused) and restores on the same port, so the
// machine's shared services are never touched.
const REDIS_URL = process.env.REDIS_URL;
const DATABASE_URL = process.env.DATABASE_URL;

let pg: TcpProxy;
let redis: TcpProxy;
let database: Database;
let app: FastifyInstance;
let base: string;
let org: Org;
let workflow: string;
let chatflow: string;

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const health = () => call(app, 'GET', '/health');

async function runToTheEnd(): Promise<string> {
  // Each connection comes back on its own retry schedule (a second or two): until then, 503.
  const started = await until(async () => {
    const answer = await call(app, 'POST', `/chatbots/${workflow}/runs`, {
      token: org.admin.token,
      body: { inputs: { query: 'still here' } },
    });
    if (answer.status === 503) return undefined;
    return answer;
  });
  expect(started.status).toBe(201);
  const runId = started.body.run_id as string;
  const res = await fetch(`${base}/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${org.admin.token}` },
  });
  const { events, done } = await readEvents(res);
  expect(done).toBe(true);
  expect(events.at(-1)!.event).toMatchObject({
    type: 'execution_completed',
    final_output: 'You said: still here',
  });
  return runId;
}

describe.skipIf(!REDIS_URL || !DATABASE_URL)('PostgreSQL or Redis out of reach', () => {
  beforeAll(async () => {
    pg = await startTcpProxy(Number(new URL(DATABASE_URL!).port || 5432), new URL(DATABASE_URL!).hostname);
    redis = await startTcpProxy(Number(new URL(REDIS_URL!).port || 6379), new URL(REDIS_URL!).hostname);
    database = await openDatabase({ url: pg.url(DATABASE_URL!), poolSize: 5 });
    await migrateDatabase(database);
    app = await buildApp({
      config: testConfig({
        DATABASE_URL: pg.url(DATABASE_URL!),
        REDIS_URL: redis.url(REDIS_URL!),
        RUN_LOCK_MS: '2000',
        SHUTDOWN_GRACE_MS: '2000',
      }),
      database,
      logger: false,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    org = await createOrg(app);
    const ws = await org.workspace(org.admin, 'Outages');
    workflow = await flowBot(app, org, ws, 'workflow', echoFlow());
    chatflow = await flowBot(app, org, ws, 'chatflow', echoFlow());
  }, 120_000);

  afterAll(async () => {
    await redis?.restore().catch(() => undefined);
    await pg?.restore().catch(() => undefined);
    await app?.close();
    await database?.close();
    await redis?.close();
    await pg?.close();
  });

  it('Redis stopped: runs and chat messages answer 503, login still works; all works again once it is back, and nothing is lost', async () => {
    const conversation = (
      await call(app, 'POST', '/chat-interface/conversations', {
        token: org.admin.token,
        body: { title: '', chatbot_id: chatflow },
      })
    ).body.conversation_id as string;
    await redis.cut();
    try {
      const run = await call(app, 'POST', `/chatbots/${workflow}/runs`, {
        token: org.admin.token,
        body: { inputs: { query: 'anyone?' } },
      });
      expect(run.status).toBe(503);
      expect(run.body).toEqual({ detail: QUEUE_UNAVAILABLE, code: 'queue_unavailable' });
      expect(run.headers['retry-after']).toBe('5');

      const chat = await call(app, 'POST', `/chat-interface/conversations/${conversation}/chatflow/message`, {
        token: org.admin.token,
        body: { input_data: { query: 'are you there?' } },
      });
      expect(chat.status).toBe(503);
      expect(chat.body.code).toBe('queue_unavailable');

      // Login limits fall back to this process's memory while Redis is away.
      const login = await call(app, 'POST', '/token', {
        body: { email: org.admin.email, password: 'Correct-Horse-9' },
      });
      expect(login.status).toBe(200);

      const down = await health();
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({
        status: 'degraded',
        db: { status: 'ok' },
        queue: { status: 'error' },
      });
    } finally {
      await redis.restore();
    }
    await until(async () => (await health()).status === 200);
    await runToTheEnd();

    // The refused message is in its conversation, answered with the reason; its run ended with it.
    const stored = await app.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversation))
      .orderBy(asc(messages.createdAt));
    expect(stored.map((m) => [m.role, m.error, m.content])).toEqual([
      ['user', false, [{ type: 'text', text: 'are you there?' }]],
      ['assistant', true, [{ type: 'text', text: `Error: ${QUEUE_UNAVAILABLE}` }]],
    ]);
    const [refused] = await app.db.select().from(runs).where(eq(runs.conversationId, conversation));
    expect([refused!.status, refused!.error]).toEqual(['failed', QUEUE_UNAVAILABLE]);
  }, 120_000);

  it('PostgreSQL stopped: calls answer 503 database_unavailable and /health 503; they work again once it is back', async () => {
    await pg.cut();
    try {
      const list = await call(app, 'GET', '/workspaces', { token: org.admin.token });
      expect(list.status).toBe(503);
      expect(list.body).toEqual({
        detail: 'The database is unavailable right now. Please try again in a moment.',
        code: 'database_unavailable',
      });
      const login = await call(app, 'POST', '/token', {
        body: { email: org.admin.email, password: 'Correct-Horse-9' },
      });
      expect(login.status).toBe(503);
      expect(login.body.code).toBe('database_unavailable');
      const down = await health();
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({
        status: 'degraded',
        db: { status: 'error' },
        queue: { status: 'ok' },
      });
    } finally {
      await pg.restore();
    }
    await until(async () => (await health()).status === 200);
    const login = await call(app, 'POST', '/token', {
      body: { email: org.admin.email, password: 'Correct-Horse-9' },
    });
    expect(login.status).toBe(200);
    await runToTheEnd();
  }, 120_000);
});
