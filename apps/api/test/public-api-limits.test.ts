import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers';
import { startPublicWorld, type PublicWorld } from './public-api-fixtures';

/** Each API key has its own per-minute budget of public-API calls (API_KEY_REQUESTS_PER_MINUTE). */
let w: PublicWorld;

beforeAll(async () => {
  w = await startPublicWorld({ API_KEY_REQUESTS_PER_MINUTE: '3' });
});
afterAll(() => w.close());

describe('per-key rate limit', () => {
  it('answers 429 with Retry-After once a key has used its minute, counting all its /v1 calls', async () => {
    const { key } = await w.key(w.bots.simple, 'Busy');
    expect((await call(w.app, 'GET', '/v1/models', { token: key })).status).toBe(200);
    expect((await call(w.app, 'GET', '/v1/conversations?user=u', { token: key })).status).toBe(200);
    expect((await call(w.app, 'GET', '/v1/models', { token: key })).status).toBe(200);

    const native = await call(w.app, 'GET', '/v1/conversations?user=u', { token: key });
    expect(native.status).toBe(429);
    expect(Number(native.headers['retry-after'])).toBeGreaterThan(0);
    expect(native.body).toEqual({ code: 'rate_limited', detail: expect.stringMatching(/Too many requests/) });

    const openAi = await call(w.app, 'GET', '/v1/models', { token: key });
    expect(openAi.status).toBe(429);
    expect(openAi.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    const client = new OpenAI({ apiKey: key, baseURL: `${w.base}/v1`, maxRetries: 0 });
    await expect(client.models.list()).rejects.toBeInstanceOf(OpenAI.RateLimitError);

    // Another key of the same chatbot has its own budget; the builders' routes are not counted.
    const { key: fresh } = await w.key(w.bots.simple, 'Quiet');
    expect((await call(w.app, 'GET', '/v1/models', { token: fresh })).status).toBe(200);
    const list = await call(w.app, 'GET', `/chatbots/${w.bots.simple}/api_keys`, {
      token: w.org.admin.token,
    });
    expect(list.status).toBe(200);
  });
});
