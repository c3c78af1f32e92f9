import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, TOKEN_REFRESH_FAIL, TOKEN_REFRESHED } from '../src/lib/api-client';
import type { TokenStore } from '../src/lib/tokens';

function memoryTokens(
  access: string | null,
  refresh: string | null,
): TokenStore & { state: { access: string | null; refresh: string | null } } {
  const state = { access, refresh };
  return {
    state,
    access: () => state.access,
    refresh: () => state.refresh,
    set: (t) => {
      state.access = t.access_token;
      state.refresh = t.refresh_token;
    },
    clear: () => {
      state.access = null;
      state.refresh = null;
    },
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake API: /token/refresh answers per `refreshAnswer`; other paths accept only `validToken`. */
function fakeServer(options: { validToken: string; refreshAnswer: () => Response; delayMs?: number }) {
  const calls: { url: string; auth: string | null }[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    calls.push({ url, auth: headers.get('authorization') });
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    if (url.endsWith('/token/refresh')) return options.refreshAnswer();
    if (headers.get('authorization') === `Bearer ${options.validToken}`) return json(200, { ok: url });
    return json(401, { detail: 'expired', code: 'token_expired' });
  });
  return { fetch, calls };
}

function setup(tokens: ReturnType<typeof memoryTokens>, server: ReturnType<typeof fakeServer>) {
  const events = new EventTarget();
  const seen: string[] = [];
  events.addEventListener(TOKEN_REFRESHED, () => seen.push(TOKEN_REFRESHED));
  events.addEventListener(TOKEN_REFRESH_FAIL, () => seen.push(TOKEN_REFRESH_FAIL));
  const onAuthLost = vi.fn();
  const client = createApiClient({
    baseUrl: 'http://api',
    tokens,
    onAuthLost,
    events,
    fetch: server.fetch as typeof fetch,
  });
  return { client, seen, onAuthLost };
}

describe('api client', () => {
  it('sends the bearer token', async () => {
    const tokens = memoryTokens('good', 'r1');
    const server = fakeServer({ validToken: 'good', refreshAnswer: () => json(500, {}) });
    const { client } = setup(tokens, server);
    await expect(client.get('/workspaces')).resolves.toEqual({ ok: 'http://api/workspaces' });
    expect(server.calls[0]?.auth).toBe('Bearer good');
  });

  it('on 401 refreshes once, stores the new tokens, broadcasts, and repeats the request', async () => {
    const tokens = memoryTokens('old', 'r1');
    const server = fakeServer({
      validToken: 'new',
      refreshAnswer: () =>
        json(200, { access_token: 'new', refresh_token: 'r2', token_type: 'bearer', expires_in: 900 }),
    });
    const { client, seen, onAuthLost } = setup(tokens, server);
    await expect(client.get('/users/details/me')).resolves.toEqual({ ok: 'http://api/users/details/me' });
    expect(tokens.state).toEqual({ access: 'new', refresh: 'r2' });
    expect(seen).toEqual([TOKEN_REFRESHED]);
    expect(onAuthLost).not.toHaveBeenCalled();
    const refreshCall = server.calls.find((c) => c.url.endsWith('/token/refresh'));
    expect(refreshCall?.auth).toBeNull(); // the refresh carries no auth header
  });

  it('concurrent 401s share one refresh', async () => {
    const tokens = memoryTokens('old', 'r1');
    const server = fakeServer({
      validToken: 'new',
      delayMs: 5,
      refreshAnswer: () =>
        json(200, { access_token: 'new', refresh_token: 'r2', token_type: 'bearer', expires_in: 900 }),
    });
    const { client, seen } = setup(tokens, server);
    const results = await Promise.all([
      client.get('/a'),
      client.get('/b'),
      client.get('/c'),
      client.get('/d'),
    ]);
    expect(results).toHaveLength(4);
    expect(server.calls.filter((c) => c.url.endsWith('/token/refresh'))).toHaveLength(1);
    expect(seen).toEqual([TOKEN_REFRESHED]);
  });

  it('retries only once: a second 401 after a refresh passes through', async () => {
    const tokens = memoryTokens('old', 'r1');
    const server = fakeServer({
      validToken: 'never',
      refreshAnswer: () =>
        json(200, { access_token: 'still-bad', refresh_token: 'r2', token_type: 'bearer', expires_in: 900 }),
    });
    const { client } = setup(tokens, server);
    await expect(client.get('/x')).rejects.toMatchObject({ status: 401, code: 'token_expired' });
    expect(server.calls.filter((c) => c.url.endsWith('/token/refresh'))).toHaveLength(1);
    expect(server.calls.filter((c) => c.url.endsWith('/x'))).toHaveLength(2);
  });

  it('a failed refresh clears the tokens, broadcasts refresh-failed and loses the session', async () => {
    const tokens = memoryTokens('old', 'r1');
    const server = fakeServer({
      validToken: 'new',
      refreshAnswer: () => json(401, { detail: 'reused', code: 'refresh_token_reused' }),
    });
    const { client, seen, onAuthLost } = setup(tokens, server);
    const error = await client.get('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).detail).toBe('Token refresh failed. Please log in again.');
    expect(tokens.state).toEqual({ access: null, refresh: null });
    expect(seen).toEqual([TOKEN_REFRESH_FAIL]);
    expect(onAuthLost).toHaveBeenCalledTimes(1);
  });

  it('without a refresh token goes to login without calling the server', async () => {
    const tokens = memoryTokens('old', null);
    const server = fakeServer({ validToken: 'new', refreshAnswer: () => json(200, {}) });
    const { client, onAuthLost } = setup(tokens, server);
    await expect(client.get('/x')).rejects.toMatchObject({
      detail: 'No refresh token available. Please log in.',
    });
    expect(server.calls.some((c) => c.url.endsWith('/token/refresh'))).toBe(false);
    expect(onAuthLost).toHaveBeenCalledTimes(1);
  });

  it('other errors pass through unchanged, with the server detail', async () => {
    const tokens = memoryTokens('good', 'r1');
    const fetch = vi.fn(async () =>
      json(409, { detail: 'A user with this email already exists.', code: 'email_taken' }),
    );
    const client = createApiClient({
      baseUrl: 'http://api',
      tokens,
      onAuthLost: vi.fn(),
      events: new EventTarget(),
      fetch,
    });
    await expect(client.post('/users', {})).rejects.toMatchObject({
      status: 409,
      code: 'email_taken',
      detail: 'A user with this email already exists.',
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('public calls carry no bearer header and a 401 there is not refreshed', async () => {
    const tokens = memoryTokens('good', 'r1');
    const server = fakeServer({ validToken: 'good', refreshAnswer: () => json(200, {}) });
    const { client } = setup(tokens, server);
    await expect(client.post('/token', { email: 'a', password: 'b' }, { auth: false })).rejects.toMatchObject(
      { status: 401 },
    );
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.auth).toBeNull();
  });

  it('a network failure reads as the catalogue sentence', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const client = createApiClient({
      baseUrl: 'http://api',
      tokens: memoryTokens('a', 'b'),
      onAuthLost: vi.fn(),
      events: new EventTarget(),
      fetch,
    });
    await expect(client.get('/x')).rejects.toMatchObject({
      status: 0,
      detail: 'Failed to communicate with the server',
    });
  });
});
