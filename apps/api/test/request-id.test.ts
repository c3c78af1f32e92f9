import { randomBytes } from 'node:crypto';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { finished, flowBot, storyFlow } from './flows';
import { call, createOrg, fakeModel, startTestApp, type Org, type TestApp } from './helpers';

// X-Request-Id: a sane one from the client is kept, anything else replaced by a UUID; every answer
// carries it, and so does every log line of the request and of the run it starts.
const lines: Record<string, unknown>[] = [];
let t: TestApp;
let fake: FakeProvider;
let org: Org;

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: 'test-key', tokenDelayMs: 1 });
  t = await startTestApp(
    {},
    {
      logger: {
        level: 'info',
        stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
      },
    },
  );
  org = await createOrg(t.app);
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  it('keeps a sane id, returns it, and logs the request under it', async () => {
    const id = `client-${randomBytes(4).toString('hex')}`;
    const res = await call(t.app, 'GET', '/health', { headers: { 'x-request-id': id } });
    expect(res.headers['x-request-id']).toBe(id);
    await vi.waitFor(() => {
      const mine = lines.filter((l) => l.reqId === id).map((l) => l.msg);
      expect(mine).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    });
  });

  it('lets the web app read it across origins (CORS exposes the header, and a 429 Retry-After)', async () => {
    const res = await call(t.app, 'GET', '/health', {
      headers: { origin: 'http://localhost:3000', 'x-request-id': 'cors-1' },
    });
    expect(res.headers['x-request-id']).toBe('cors-1');
    expect(String(res.headers['access-control-expose-headers']).split(/,\s*/)).toEqual(
      expect.arrayContaining(['x-request-id', 'retry-after']),
    );
  });

  it('replaces a missing, over-long or unprintable id with a new UUID, on errors too', async () => {
    const given = [undefined, 'x'.repeat(129), 'has space', 'new\nline', '<script>', ''];
    const seen = new Set<string>();
    for (const value of given) {
      const res = await call(t.app, 'GET', '/no-such-route', {
        headers: value === undefined ? {} : { 'x-request-id': value },
      });
      expect(res.status).toBe(404);
      const id = String(res.headers['x-request-id']);
      expect(id).toMatch(UUID);
      seen.add(id);
    }
    expect(seen.size).toBe(given.length);
    const unauthorized = await call(t.app, 'GET', '/workspaces', { headers: { 'x-request-id': 'auth-1' } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['x-request-id']).toBe('auth-1');
  });

  it('a run started by a request logs its start and end under the request id', async () => {
    const ws = await org.workspace(org.admin, 'Traced');
    const { modelId } = await fakeModel(t.app, org, ws, fake.url);
    const workflow = await flowBot(t.app, org, ws, 'workflow', storyFlow(modelId));
    const id = `run-${randomBytes(4).toString('hex')}`;
    const res = await call(t.app, 'POST', `/chatbots/${workflow}/runs`, {
      token: org.admin.token,
      body: { inputs: { topic: 'logs' } },
      headers: { 'x-request-id': id },
    });
    expect(res.status).toBe(201);
    expect(res.headers['x-request-id']).toBe(id);
    const runId = res.body.run_id as string;
    await finished(t.app, org.admin.token, runId);
    // Without Redis the API runs it; with Redis (CI) the API's own worker does: its lines are here too.
    await vi.waitFor(() => {
      const started = lines.find((l) => l.msg === 'run started' && l.runId === runId);
      const ended = lines.find((l) => l.msg === 'run ended' && l.runId === runId);
      expect(started).toMatchObject({ reqId: id, chatbotType: 'workflow', trigger: 'test', attempt: 1 });
      expect(ended).toMatchObject({ reqId: id, outcome: 'succeeded', chatbotType: 'workflow' });
      expect(ended!.durationMs).toEqual(expect.any(Number));
    });
    // Every line written while the request was handled carries its id.
    const request = lines.filter((l) => l.reqId === id);
    expect(request.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'request completed', 'run started', 'run ended']),
    );
  });
});
