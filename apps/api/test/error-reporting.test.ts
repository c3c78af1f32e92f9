import { randomBytes } from 'node:crypto';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readEvents } from './flows';
import { startObservedApi, type Observed } from './observed-process';
import { startSentryReceiver } from './telemetry-receivers';

// Processes of their own start slowly on a loaded machine (tsx compiles the app as it loads).
const SLOW = 240_000;

// Error reporting to a Sentry-compatible endpoint (a local one here), from an API process of its own
// (the client starts once per process, from SENTRY_DSN). What a request carried never leaves with it.
let fake: FakeProvider;
let sentry: Awaited<ReturnType<typeof startSentryReceiver>>;
let api: Observed & { base: string; token: string; workflow: string };

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: 'test-key', tokenDelayMs: 1 });
  sentry = await startSentryReceiver();
  api = await startObservedApi({ SENTRY_DSN: sentry.dsn, REDIS_URL: '' }, fake.url);
}, SLOW);
afterAll(async () => {
  await api?.stop();
  await fake?.close();
  await sentry?.close();
});

describe('error reporting', () => {
  it('reports an error thrown in a route, without the body, the prompt, the answer or any credential', async () => {
    const secret = randomBytes(6).toString('hex');
    const prompt = `PROMPT-${secret}`;
    const bearer = `TOKEN-${secret}`;
    const cookie = `COOKIE-${secret}`;
    const apiKey = `sk-${secret}${secret}`;
    // A run first, so that a prompt and an answer went through this process.
    const started = await fetch(`${api.base}/chatbots/${api.workflow}/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ inputs: { topic: prompt } }),
    });
    const runId = ((await started.json()) as { run_id: string }).run_id;
    const { events } = await readEvents(
      await fetch(`${api.base}/runs/${runId}/events`, { headers: { authorization: `Bearer ${api.token}` } }),
    );
    expect(events.at(-1)!.event).toMatchObject({ final_output: `Echo: Write about ${prompt}` });

    const res = await fetch(`${api.base}/test/failing-route?api_key=${apiKey}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bearer}`,
        cookie: `session=${cookie}`,
        'x-api-key': apiKey,
        'content-type': 'application/json',
        'x-request-id': `err-${secret}`,
      },
      body: JSON.stringify({
        prompt,
        answer: `Echo: ${prompt}`,
        messages: [{ role: 'user', content: prompt }],
      }),
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: 'internal_error' });

    await vi.waitFor(
      () => {
        const event = sentry.envelopes.find((e) => e.text.includes('the failing route failed'));
        expect(event).toBeDefined();
        expect(event!.path.split('?')[0]).toBe('/api/42/envelope/');
        // Tagged with the route pattern and the request id, to find the request's log lines.
        expect(event!.text).toContain('/test/failing-route');
        expect(event!.text).toContain(`err-${secret}`);
      },
      { timeout: 15_000, interval: 100 },
    );
    const everything = sentry.envelopes.map((e) => e.text).join('\n');
    for (const leak of [prompt, bearer, cookie, apiKey, 'Echo: Write about'])
      expect(everything).not.toContain(leak);
    expect(everything.toLowerCase()).not.toMatch(
      /"authorization"|"cookie"|"x-api-key"|header\.(authorization|cookie)/,
    );
  });

  it('a client error (4xx) is the caller’s, not a bug: it is not reported', async () => {
    const before = sentry.envelopes.length;
    const res = await fetch(`${api.base}/chatbots/not-an-id/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    // A later 500 is reported: the 4xx before it would be in between if it had been.
    await fetch(`${api.base}/test/failing-route`, { method: 'POST' });
    await vi.waitFor(() => expect(sentry.envelopes.length).toBeGreaterThan(before));
    const after = sentry.envelopes.slice(before).filter((e) => e.text.includes('"type":"event"'));
    expect(after.every((e) => e.text.includes('the failing route failed'))).toBe(true);
  });
});
