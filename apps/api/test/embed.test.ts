import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from './flows';
import { call, createOrg, type Org } from './helpers';
import { startPublicWorld, type PublicWorld } from './public-api-fixtures';

/** The embeddable chat: its settings (builders only), and its key-less routes, reached by the token. */
let w: PublicWorld;
let token: string;
const SHOP = 'https://shop.example.com';
const EVIL = 'https://evil.example.net';
const admin = () => w.org.admin.token;

const settings = (id: string, body?: unknown, as = admin()) =>
  body === undefined
    ? call(w.app, 'GET', `/chatbots/${id}/embed`, { token: as })
    : call(w.app, 'PUT', `/chatbots/${id}/embed`, { token: as, body });
const embedGet = (path: string, origin?: string) =>
  call(w.app, 'GET', path, { headers: origin ? { origin } : {} });
const send = (tok: string, user: string, body: Record<string, unknown>, origin = SHOP) =>
  fetch(`${w.base}/embed/${tok}/messages?user=${user}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(body),
  });
const textOf = (events: { event: unknown }[]) =>
  events
    .map((e) => e.event as { type: string; text?: string })
    .filter((e) => e.type === 'text')
    .map((e) => e.text)
    .join('');

beforeAll(async () => {
  w = await startPublicWorld();
  const made = await settings(w.bots.simple);
  expect(made.status).toBe(200);
  expect(made.body.embed).toMatchObject({ enabled: false, allowed_origins: [] });
  token = made.body.embed.token as string;
  const on = await settings(w.bots.simple, { enabled: true, allowed_origins: [SHOP], greeting: 'Hello!' });
  expect(on.status).toBe(200);
});
afterAll(() => w.close());

describe('embed settings', () => {
  it('gives the snippet URLs and a stable token; validates origins; regenerating retires the old token', async () => {
    const read = await settings(w.bots.simple);
    expect(read.body.embed).toMatchObject({
      chatbot_id: w.bots.simple,
      enabled: true,
      allowed_origins: [SHOP],
      token,
      greeting: 'Hello!',
      script_url: expect.stringMatching(/\/embed\.js$/),
      frame_url: expect.stringMatching(new RegExp(`/embed/${token}$`)),
    });
    expect(token).toMatch(/^emb_[A-Za-z0-9_-]{40,}$/);

    for (const bad of [
      'shop.example.com',
      'https://shop.example.com/',
      'https://shop.example.com/path',
      'ftp://x.y',
    ]) {
      const res = await settings(w.bots.simple, { allowed_origins: [bad] });
      expect(res.status, bad).toBe(422);
      expect(res.body.detail).toMatch(/origin/i);
    }
    const twice = await settings(w.bots.simple, { allowed_origins: [SHOP, SHOP] });
    expect(twice.status).toBe(422);

    const other = (await settings(w.bots.chatflow)).body.embed;
    const empty = await settings(w.bots.chatflow, { enabled: true });
    expect(empty.status).toBe(422);
    expect(empty.body.code).toBe('embed_origins_required');
    const workflow = await settings(w.bots.workflow, { enabled: true, allowed_origins: [SHOP] });
    expect([workflow.status, workflow.body.code]).toEqual([422, 'wrong_chatbot_type']);

    const renewed = await call(w.app, 'POST', `/chatbots/${w.bots.chatflow}/embed/token`, { token: admin() });
    expect(renewed.status).toBe(200);
    expect(renewed.body.embed.token).not.toBe(other.token);
    expect((await embedGet(`/embed/${other.token}/config?user=browser-aaaa`)).status).toBe(404);
  });

  it("another organization's chatbot answers 404, and a plain user may not manage embeds", async () => {
    const stranger: Org = await createOrg(w.app);
    for (const res of [
      await settings(w.bots.simple, undefined, stranger.admin.token),
      await settings(w.bots.simple, { enabled: false }, stranger.admin.token),
      await call(w.app, 'POST', `/chatbots/${w.bots.simple}/embed/token`, { token: stranger.admin.token }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', detail: expect.any(String) });
    }
    const user = await w.org.member('user');
    expect((await settings(w.bots.simple, undefined, user.token)).status).toBe(403);
    expect((await settings(w.bots.simple)).body.embed.token).toBe(token);
  });
});

describe('embed origins and the iframe page', () => {
  it('an allowed origin gets CORS; another origin is refused 403 with no CORS header', async () => {
    const ok = await embedGet(`/embed/${token}/config?user=browser-aaaa`, SHOP);
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(SHOP);
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    expect(ok.body).toEqual({
      chatbot: { name: 'Support bot', type: 'simple' },
      greeting: 'Hello!',
      placeholder: '',
    });

    const refused = await embedGet(`/embed/${token}/config?user=browser-aaaa`, EVIL);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: 'origin_not_allowed', detail: expect.stringContaining(EVIL) });
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();

    const preflight = await w.app.inject({
      method: 'OPTIONS',
      url: `/embed/${token}/messages?user=browser-aaaa`,
      headers: {
        origin: SHOP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBe(SHOP);
    const evilPreflight = await w.app.inject({
      method: 'OPTIONS',
      url: `/embed/${token}/messages?user=browser-aaaa`,
      headers: { origin: EVIL, 'access-control-request-method': 'POST' },
    });
    expect(evilPreflight.headers['access-control-allow-origin']).toBeUndefined();
    // The web app's own origin is no embed origin either.
    const web = await embedGet(`/embed/${token}/config?user=browser-aaaa`, 'http://localhost:3000');
    expect(web.status).toBe(403);
  });

  it('serves the iframe page framed only by the allowed origins; an unknown token may not be framed', async () => {
    const res = await w.app.inject({ method: 'GET', url: `/embed/${token}?lang=fr` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toContain(`frame-ancestors ${SHOP}`);
    expect(policy).toContain("connect-src 'self'");
    expect(res.body).toContain('<html lang="fr">');
    expect(res.body).toContain(`data-token="${token}"`);

    const unknown = await w.app.inject({ method: 'GET', url: `/embed/emb_${'x'.repeat(43)}` });
    expect(unknown.statusCode).toBe(404);
    expect(String(unknown.headers['content-security-policy'])).toContain("frame-ancestors 'none'");

    const script = await w.app.inject({ method: 'GET', url: '/embed.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('text/javascript');
    expect(script.body).toContain('data-token');
  });
});

describe('the embed token reaches its chatbot only', () => {
  it("streams an answer, continues the conversation, and lists only this browser's messages", async () => {
    const first = await send(token, 'browser-alice', { message: 'my name is Alice' });
    expect(first.status).toBe(200);
    expect(first.headers.get('access-control-allow-origin')).toBe(SHOP);
    const started = await readEvents(first);
    expect(textOf(started.events)).toBe('Echo: my name is Alice');
    const conversation = (started.events[0]!.event as { conversation_id: string }).conversation_id;

    const second = await readEvents(
      await send(token, 'browser-alice', { message: 'and again', conversation_id: conversation }),
    );
    expect(textOf(second.events)).toBe('Echo: and again');

    const mine = await embedGet(
      `/embed/${token}/conversations/${conversation}/messages?user=browser-alice`,
      SHOP,
    );
    expect(mine.body.history.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    const list = await embedGet(`/embed/${token}/conversations?user=browser-alice`, SHOP);
    expect(list.body.conversations.map((c: { id: string }) => c.id)).toEqual([conversation]);

    // Another browser sees none of it, and cannot continue it.
    const theirs = await embedGet(
      `/embed/${token}/conversations/${conversation}/messages?user=browser-bobby`,
      SHOP,
    );
    expect(theirs.status).toBe(404);
    expect(
      (await embedGet(`/embed/${token}/conversations?user=browser-bobby`, SHOP)).body.conversations,
    ).toEqual([]);
    const hijack = await send(token, 'browser-bobby', { message: 'hi', conversation_id: conversation });
    expect(hijack.status).toBe(404);
    // Nor does an API key's end user of the same name.
    const { key } = await w.key(w.bots.simple);
    const viaKey = await call(w.app, 'GET', '/v1/conversations?user=browser-alice', { token: key });
    expect(viaKey.body.conversations).toEqual([]);
  });

  it("the token is no key: it reaches neither another chatbot's embed, nor the public API, nor the app", async () => {
    const chatflow = (await settings(w.bots.chatflow, { enabled: true, allowed_origins: [SHOP] })).body.embed;
    const alice = await send(token, 'browser-alice', { message: 'hello' });
    const conversation = ((await readEvents(alice)).events[0]!.event as { conversation_id: string })
      .conversation_id;
    // The chatflow's token cannot read the simple chatbot's conversation of the same browser.
    const cross = await embedGet(
      `/embed/${chatflow.token}/conversations/${conversation}/messages?user=browser-alice`,
      SHOP,
    );
    expect(cross.status).toBe(404);
    for (const [method, path] of [
      ['GET', '/v1/models'],
      ['GET', '/v1/conversations?user=browser-alice'],
      ['GET', `/chatbots/${w.bots.simple}/embed`],
      ['GET', '/chat-interface/conversations'],
    ] as const) {
      const res = await call(w.app, method, path, { token });
      expect(res.status, path).toBe(401);
    }
  });

  it('a disabled embed and an unpublished chatbot are refused clearly', async () => {
    await settings(w.bots.simple, { enabled: false });
    const off = await embedGet(`/embed/${token}/config?user=browser-alice`, SHOP);
    expect(off.status).toBe(403);
    expect(off.body).toEqual({ code: 'embed_disabled', detail: 'This chat is turned off by its owner.' });
    expect((await send(token, 'browser-alice', { message: 'hi' })).status).toBe(403);
    // The page still loads (framed by the allowed origins) so that the widget can say so.
    expect((await w.app.inject({ method: 'GET', url: `/embed/${token}` })).statusCode).toBe(200);
    await settings(w.bots.simple, { enabled: true });

    const draft = (
      await call(w.app, 'POST', '/chatbots', {
        token: admin(),
        body: { workspace_id: w.workspace, name: 'Draft', type: 'simple' },
      })
    ).body.id as string;
    const embed = (await settings(draft, { enabled: true, allowed_origins: [SHOP] })).body.embed;
    const unpublished = await embedGet(`/embed/${embed.token}/config?user=browser-alice`, SHOP);
    expect(unpublished.status).toBe(409);
    expect(unpublished.body.code).toBe('chatbot_unpublished');
  });

  it('a chatflow answers through its run events', async () => {
    const chatflow = (await settings(w.bots.chatflow)).body.embed;
    const res = await send(chatflow.token, 'browser-carol', { message: 'a story' });
    expect(res.status).toBe(200);
    const { events, done } = await readEvents(res);
    expect(done).toBe(true);
    const types = events.map((e) => (e.event as { type: string }).type);
    expect(types[0]).toBe('run_started');
    expect(types).toContain('execution_completed');
    // A visitor sees the answer, not the nodes' work (prompts, outputs).
    expect(
      types.filter((t) => !['run_started', 'text', 'sources', 'execution_completed'].includes(t)),
    ).toEqual([]);
  });
});
