import type { AddressInfo } from 'node:net';
import { sharedTestDatabase } from '@atelier/testkit';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { echoFlow, flowBot } from '../flows';
import { call, createOrg, testConfig, type Org } from '../helpers';
import { sseBlocks } from './processes';

// A run queued while no worker is alive is visible: /health reports the queue and says degraded, and
// the run's client hears its place in the queue.
const REDIS_URL = process.env.REDIS_URL;

describe('the queue as the health check and the waiting client see it', () => {
  let app: FastifyInstance;
  let base: string;
  let org: Org;
  let workflow: string;

  beforeAll(async () => {
    // With Redis: runs go to workers, and none is running. Without: the API is its own worker.
    app = await buildApp({
      config: testConfig(REDIS_URL ? { RUN_WORKER_IN_API: 'false' } : {}),
      database: await sharedTestDatabase(),
      logger: false,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    org = await createOrg(app);
    workflow = await flowBot(app, org, await org.workspace(org.admin, 'Queue'), 'workflow', echoFlow());
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it.skipIf(REDIS_URL)('embedded: the API itself is the live worker', async () => {
    const health = await call(app, 'GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    expect(health.body.runs).toMatchObject({ live_workers: 1, workers: [{ kind: 'api', active: 0 }] });
  });

  it.skipIf(!REDIS_URL)(
    'no worker alive: the waiting client hears `queued` with its place, /health says degraded with the queue',
    async () => {
      const res = await fetch(`${base}/chatbots/${workflow}/runs`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${org.admin.token}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
        },
        body: JSON.stringify({ inputs: { query: 'hello?' } }),
      });
      const blocks = sseBlocks(res);
      const first = await blocks.next();
      expect(first.done).toBe(false);
      // No id: a client resuming with Last-Event-ID is not moved by it.
      expect(first.value!.id).toBeNull();
      const notice = JSON.parse(first.value!.data) as { type: string; run_id: string; position: number };
      expect(notice.type).toBe('queued');
      expect(notice.position).toBeGreaterThanOrEqual(1);

      const health = await call(app, 'GET', '/health');
      expect(health.status).toBe(200);
      expect(health.body.status).toBe('degraded');
      expect(health.body.runs.live_workers).toBe(0);
      expect(health.body.runs.workers).toEqual([]);
      expect(health.body.runs.queued).toBeGreaterThanOrEqual(1);
      expect(health.body.runs.oldest_queued_seconds).toBeGreaterThanOrEqual(0);
      expect(health.body.runs.detail).toMatch(/no worker is running/);

      // Cancelled while waiting: the client hears the end.
      const cancel = await call(app, 'POST', `/runs/${notice.run_id}/cancel`, { token: org.admin.token });
      expect(cancel.body.status).toBe('cancelled');
      const rest: string[] = [];
      for (;;) {
        const next = await blocks.next();
        if (next.done) break;
        rest.push(next.value.data);
      }
      expect(rest.at(-1)).toBe('[DONE]');
      expect(JSON.parse(rest.at(-2)!)).toMatchObject({ type: 'execution_error', status: 'cancelled' });
    },
    60_000,
  );
});
