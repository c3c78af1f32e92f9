import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './helpers';
import { startPublicWorld, type PublicWorld } from './public-api-fixtures';

/** Each embed token has a per-minute budget, and each browser of it a smaller one. */
let w: PublicWorld;
let token: string;
const SHOP = 'https://shop.example.com';

beforeAll(async () => {
  w = await startPublicWorld({
    EMBED_REQUESTS_PER_TOKEN_PER_MINUTE: '5',
    EMBED_REQUESTS_PER_BROWSER_PER_MINUTE: '2',
  });
  const res = await call(w.app, 'PUT', `/chatbots/${w.bots.simple}/embed`, {
    token: w.org.admin.token,
    body: { enabled: true, allowed_origins: [SHOP] },
  });
  token = res.body.embed.token as string;
});
afterAll(() => w.close());

const config = (user: string) =>
  call(w.app, 'GET', `/embed/${token}/config?user=${user}`, { headers: { origin: SHOP } });

describe('embed rate limits', () => {
  it('answers 429 with Retry-After per browser, then per token, whatever the browser', async () => {
    expect((await config('browser-one')).status).toBe(200);
    expect((await config('browser-one')).status).toBe(200);
    const browser = await config('browser-one');
    expect(browser.status).toBe(429);
    expect(Number(browser.headers['retry-after'])).toBeGreaterThan(0);
    expect(browser.body).toEqual({
      code: 'rate_limited',
      detail: expect.stringMatching(/Too many requests/),
    });
    // The message route counts against the same budgets (refused before its body is read).
    const message = await call(w.app, 'POST', `/embed/${token}/messages?user=browser-one`, {
      headers: { origin: SHOP },
      body: { message: 'hi' },
    });
    expect(message.status).toBe(429);

    // Another browser has its own budget, until the token's is spent (a browser's refused calls are not
    // counted against the token: 2 so far, 5 allowed).
    for (const user of ['browser-two', 'browser-three', 'browser-four']) {
      expect((await config(user)).status, user).toBe(200);
    }
    const spent = await config('browser-five');
    expect(spent.status).toBe(429);
    expect(spent.body.code).toBe('rate_limited');

    // The builders' routes are not counted.
    const settings = await call(w.app, 'GET', `/chatbots/${w.bots.simple}/embed`, {
      token: w.org.admin.token,
    });
    expect(settings.status).toBe(200);
  });
});
