import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataUrlLength, uploadBodyLimit } from '../../src/plugins/body-limits';
import { call, createOrg, startTestApp, type Actor, type Org, type TestApp } from '../helpers';

// Small images so that over-limit bodies stay small: 1 image of 3,000 bytes.
const IMAGES = { CHAT_IMAGE_MAX_BYTES: '3000', CHAT_IMAGE_MAX_COUNT: '1' };
const LOW_RATES = {
  CHAT_MESSAGES_PER_USER_PER_MINUTE: '2',
  RUNS_PER_USER_PER_MINUTE: '2',
  MODEL_CALLS_PER_USER_PER_MINUTE: '2',
  PROVIDER_TESTS_PER_USER_PER_MINUTE: '2',
  PAGE_VIEWS_PER_USER_PER_MINUTE: '2',
};

let t: TestApp;
let org: Org;
let user: Actor;

beforeAll(async () => {
  t = await startTestApp(IMAGES);
  org = await createOrg(t.app);
  user = await org.member('user');
});
afterAll(() => t.close());

const post = (app: TestApp['app'], url: string, token: string, payload: string | Readable) =>
  app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });

function expectTooLarge(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(413);
  expect(res.json()).toEqual({ detail: 'The request body is too large.', code: 'body_too_large' });
}

describe('body limits sized to each route', () => {
  const limit = uploadBodyLimit({ maxBytes: 3000, maxCount: 1 });
  const text = (chars: number) =>
    JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(chars) }] });

  it('a chat message over its limit answers 413, whether announced or streamed without a length', async () => {
    const url = `/chat-interface/conversations/${randomUUID()}/simple/message`;
    expectTooLarge(await post(t.app, url, user.token, text(limit + 10)));
    // Chunked, no Content-Length: refused while it streams in.
    const chunks = Array.from({ length: 40 }, () => 'x'.repeat(64 * 1024));
    const streamed = Readable.from(['{"messages":[{"role":"user","content":"', ...chunks, '"}]}']);
    expectTooLarge(await post(t.app, url, user.token, streamed));
    // Just under the limit, the body is read and the route answers (no such conversation).
    const history = Array.from({ length: 5 }, () => ({ role: 'user', content: 'x'.repeat(200_000) }));
    const under = JSON.stringify({ messages: history });
    expect(under.length).toBeGreaterThan(1_000_000);
    expect(under.length).toBeLessThan(limit);
    expect((await post(t.app, url, user.token, under)).statusCode).toBe(404);
  });

  it('a run over its limit answers 413, and a plain JSON route over 64 KiB too', async () => {
    const run = JSON.stringify({
      inputs: { topic: 'x'.repeat(uploadBodyLimit({ maxBytes: 3000, maxCount: 1 }, 2 * 1024 * 1024)) },
    });
    expectTooLarge(await post(t.app, `/chatbots/${randomUUID()}/runs`, org.admin.token, run));
    expectTooLarge(
      await post(t.app, '/workspaces', org.admin.token, JSON.stringify({ name: 'x'.repeat(70_000) })),
    );
    expectTooLarge(
      await post(
        t.app,
        '/analytics/page-views',
        user.token,
        JSON.stringify({ name: 'x', path: 'x'.repeat(5000) }),
      ),
    );
  });

  it('images: at most CHAT_IMAGE_MAX_COUNT, each at most CHAT_IMAGE_MAX_BYTES', async () => {
    const url = `/chat-interface/conversations/${randomUUID()}/simple/message`;
    const image = (bytes: number) => ({
      type: 'image',
      url: `data:image/png;base64,${randomBytes(bytes).toString('base64')}`,
    });
    const send = (parts: unknown[]) =>
      call(t.app, 'POST', url, { token: user.token, body: { messages: [{ role: 'user', content: parts }] } });
    const two = await send([image(100), image(100)]);
    expect(two.status).toBe(422);
    expect(two.body).toEqual({ code: 'too_many_images', detail: expect.stringMatching(/at most 1 image/) });
    const big = await send([image(3600)]);
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('image_too_large');
    expect(dataUrlLength(3000)).toBeLessThan(image(3600).url.length);
    // One image within the limit passes the check (the conversation does not exist).
    expect((await send([image(3000)])).status).toBe(404);
  });
});

describe('per-user rate limits on the costly routes', () => {
  let limited: TestApp;
  let lorg: Org;
  let builder: Actor;
  let otherBuilder: Actor;

  beforeAll(async () => {
    limited = await startTestApp(LOW_RATES);
    lorg = await createOrg(limited.app);
    builder = await lorg.member('creator', 'builder');
    otherBuilder = await lorg.member('creator', 'other');
  });
  afterAll(() => limited.close());

  const presets: [string, string, unknown][] = [
    [
      'chat',
      `/chat-interface/conversations/${randomUUID()}/simple/message`,
      { messages: [{ role: 'user', content: 'hi' }] },
    ],
    ['run', `/chatbots/${randomUUID()}/runs`, { inputs: {} }],
    ['invoke', `/models/${randomUUID()}/invoke`, { messages: [{ role: 'user', content: 'hi' }] }],
    ['providerTest', `/providers/${randomUUID()}/test`, undefined],
    ['pageView', '/analytics/page-views', { name: 'Home' }],
  ];

  it.each(presets)(
    '%s: 429 with Retry-After after the limit, other users unaffected',
    async (_preset, url, body) => {
      for (let i = 0; i < 2; i++) {
        const res = await call(limited.app, 'POST', url, { token: builder.token, body });
        expect(res.status).not.toBe(429);
      }
      const refused = await call(limited.app, 'POST', url, { token: builder.token, body });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        code: 'rate_limited',
        detail: expect.stringMatching(/Please wait \d+ seconds/),
      });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      const other = await call(limited.app, 'POST', url, { token: otherBuilder.token, body });
      expect(other.status).not.toBe(429);
    },
  );

  it('the three chat-message routes share one budget', async () => {
    const member = await lorg.member('user', 'chatter');
    const id = randomUUID();
    const simple = await call(limited.app, 'POST', `/chat-interface/conversations/${id}/simple/message`, {
      token: member.token,
      body: { messages: [{ role: 'user', content: 'hi' }] },
    });
    const flow = { input_data: { query: 'hi' } };
    const chatflow = await call(limited.app, 'POST', `/chat-interface/conversations/${id}/chatflow/message`, {
      token: member.token,
      body: flow,
    });
    const workflow = await call(limited.app, 'POST', `/chat-interface/conversations/${id}/workflow/message`, {
      token: member.token,
      body: flow,
    });
    expect([simple.status, chatflow.status, workflow.status]).toEqual([404, 404, 429]);
  });

  it('without Redis the count is kept in memory', async () => {
    const local = await startTestApp({ ...LOW_RATES, REDIS_URL: '' });
    try {
      expect(local.app.redis).toBeNull();
      const lo = await createOrg(local.app);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push(
          (
            await call(local.app, 'POST', '/analytics/page-views', {
              token: lo.admin.token,
              body: { name: 'Home' },
            })
          ).status,
        );
      }
      expect(statuses).toEqual([204, 204, 429]);
    } finally {
      await local.close();
    }
  });

  it.skipIf(!process.env.REDIS_URL)('with Redis, two API processes share the count', async () => {
    const prefix = `atelier-test-shared-${randomBytes(4).toString('hex')}`;
    const a = await startTestApp({ ...LOW_RATES, QUEUE_PREFIX: prefix });
    const b = await startTestApp({ ...LOW_RATES, QUEUE_PREFIX: prefix });
    try {
      const shared = await createOrg(a.app);
      const view = (app: TestApp['app']) =>
        call(app, 'POST', '/analytics/page-views', { token: shared.admin.token, body: { name: 'Home' } });
      expect((await view(a.app)).status).toBe(204);
      expect((await view(b.app)).status).toBe(204);
      const third = await view(a.app);
      expect(third.status).toBe(429);
      expect((await view(b.app)).status).toBe(429);
      expect(third.headers['retry-after']).toBeDefined();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
