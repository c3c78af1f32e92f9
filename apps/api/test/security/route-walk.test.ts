import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoFlow, finished, flowBot } from '../flows';
import { call, createOrg, fakeModel, startTestApp, type Actor, type Org, type TestApp } from '../helpers';

/**
 * Walks every route the app registered (read from the app, not a hand list) as a hostile caller
 * would: without a token, with another organization's ids, with malformed JSON, NUL bytes, deep
 * nesting and bodies over the route's limit. Nothing may answer 500, and nothing of the other
 * organization may come back. A new route whose path names an id must be given its id here, so it
 * is walked too.
 */
let t: TestApp;
let fake: FakeProvider;
let a: Org;
let b: Org;
/** Every id and text of organization A that must never reach organization B. */
let secrets: string[];
type Ids = Record<
  'workspace' | 'user' | 'provider' | 'model' | 'simple' | 'flow' | 'conversation' | 'run',
  string
>;
let idsOfA: Ids;
let idsOfB: Ids;

type Route = FastifyInstance['routeCatalog'][number];
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One of everything in an organization, each named with `label` so that a leak can be seen. */
async function world(org: Org, label: string): Promise<{ ids: Ids; texts: string[] }> {
  const token = org.admin.token;
  const workspace = await org.workspace(org.admin, `${label}-workspace`);
  const user: Actor = await org.member('user', `${label}-user`);
  const { providerId, modelId } = await fakeModel(t.app, org, workspace, fake.url);
  const simple = (
    await call(t.app, 'POST', '/chatbots', {
      token,
      body: { workspace_id: workspace, name: `${label}-simple`, type: 'simple' },
    })
  ).body.id as string;
  await call(t.app, 'PUT', `/chatbots/${simple}/simple/config`, {
    token,
    body: { instruction: `${label}-instruction`, model_id: modelId },
  });
  await call(t.app, 'POST', `/chatbots/${simple}/publish`, { token });
  const flow = await flowBot(t.app, org, workspace, 'workflow', echoFlow());
  const conversation = (
    await call(t.app, 'POST', '/chat-interface/conversations', {
      token,
      body: { title: `${label}-conversation`, chatbot_id: simple },
    })
  ).body.conversation_id as string;
  const run = (
    await call(t.app, 'POST', `/chatbots/${flow}/runs`, {
      token,
      body: { inputs: { query: `${label}-question` } },
    })
  ).body.run_id as string;
  await finished(t.app, token, run);
  const ids = {
    workspace,
    user: user.id,
    provider: providerId,
    model: modelId,
    simple,
    flow,
    conversation,
    run,
  };
  expect(Object.values(ids).every(Boolean)).toBe(true);
  const texts = [...Object.values(ids), org.id, org.admin.id, org.admin.email, user.email];
  for (const part of ['workspace', 'simple', 'instruction', 'conversation', 'question']) {
    texts.push(`${label}-${part}`);
  }
  return { ids, texts };
}

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeProvider();
  a = await createOrg(t.app);
  b = await createOrg(t.app);
  const worldOfA = await world(a, 'A-secret');
  idsOfA = worldOfA.ids;
  secrets = worldOfA.texts;
  idsOfB = (await world(b, 'B-own')).ids;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const routes = () => t.app.routeCatalog.filter((r) => !r.url.startsWith('/docs'));
const name = (r: Route) => `${r.method} ${r.url}`;
const isPublic = (r: Route) => r.access === 'public';
const takesBody = (r: Route) => ['POST', 'PUT', 'PATCH'].includes(r.method);

/** An organization's id for a path parameter, chosen by the route's resource. */
function idFor(ids: Ids, url: string, param: string): string | undefined {
  const p = (prefix: string) => url.startsWith(prefix);
  if (param === 'user_id' || param === 'userId') return ids.user;
  if (param === 'workspace_id') return ids.workspace;
  if (param !== 'id') return undefined;
  if (p('/users/workspace/') || p('/workspaces/')) return ids.workspace;
  if (p('/users/onboarding/')) return undefined;
  if (p('/users/')) return ids.user;
  if (p('/providers/')) return ids.provider;
  if (p('/models/')) return ids.model;
  if (p('/chatbots/') && url.includes('/simple/')) return ids.simple;
  if (p('/chatbots/') || p('/delete_chatbot/')) return ids.flow;
  if (p('/runs/')) return ids.run;
  if (p('/chat-interface/chatbots/')) return ids.simple;
  if (p('/chat-interface/conversations/')) return ids.conversation;
  return undefined;
}

/** The route's URL with an organization's ids, or the params it could not fill. */
function withIds(route: Route, ids: Ids): { url: string; missing: string[] } {
  const missing: string[] = [];
  const url = route.url.replace(/:([a-zA-Z_]+)/g, (_m, param: string) => {
    const id = idFor(ids, route.url, param);
    if (!id) missing.push(param);
    return id ?? param;
  });
  return { url, missing };
}

/**
 * A body (and query) that passes validation, so that a call reaches the service rather than stopping
 * at the schema; ids are the given organization's. Every route that takes a body must have one (a
 * test says so), so a new route is walked with a real body.
 */
function validRequest(route: Route, ids: Ids): { body?: Record<string, unknown>; query?: string } {
  const messages = [{ role: 'user', content: 'hi' }];
  const password = 'Correct-Horse-9';
  const samples: Record<string, { body?: Record<string, unknown>; query?: string }> = {
    'POST /token': { body: { email: 'nobody@example.test', password } },
    'POST /token/refresh': { body: { refresh_token: 'not-a-refresh-token' } },
    'POST /token/revoke': { body: { refresh_token: 'not-a-refresh-token' } },
    'POST /auth/request-password-reset': { body: { email: 'nobody@example.test' } },
    'POST /auth/set-password': { body: { token: 'not-a-token', password } },
    'POST /users/onboarding/complete': {
      body: { token: 'not-a-token', password, firstName: 'F', lastName: 'L', accept_terms: true },
    },
    'POST /analytics/page-views': { body: { name: 'Walked page', path: '/walked' } },
    'POST /users': { body: { email: 'walked@example.test', user_role_id: 'user', firstName: 'Walked' } },
    'PUT /users/:id': { body: { firstName: 'Walked', user_role_id: 'user' } },
    'POST /users/:id/invitation': { body: {} },
    'PATCH /users/profile/me': { body: { firstName: 'Walked', jobTitle: 'Tester' } },
    'POST /workspaces': { body: { name: 'Walked workspace' } },
    'PUT /workspaces/:id': { body: { name: 'Taken over' } },
    'POST /user_workspace_roles': {
      body: { user_id: ids.user, workspace_id: ids.workspace, workspace_role_id: 'admin' },
    },
    'PUT /user_workspace_roles/:user_id/:workspace_id': { body: { workspace_role_id: 'admin' } },
    'POST /providers': {
      body: { workspace_id: ids.workspace, name: 'Walked', kind: 'openai_compatible', base_url: fake.url },
    },
    'PUT /providers/:id': { body: { name: 'Taken over' } },
    'POST /providers/:id/test': { body: {} },
    'POST /models': {
      body: {
        workspace_id: ids.workspace,
        provider_id: ids.provider,
        model_name: 'walked',
        model_type: 'llm',
      },
    },
    'PUT /models/:id': { body: { name: 'Taken over', description: 'Walked' } },
    'POST /models/:id/invoke': { body: { messages } },
    'POST /chatbots': { body: { workspace_id: ids.workspace, name: 'Walked', type: 'simple' } },
    'PUT /chatbots/:id': { body: { name: 'Taken over', description: 'Walked' } },
    'POST /chatbots/:id/publish': { body: {} },
    'POST /chatbots/duplicate': { body: { chatbot_id: ids.flow, new_name: 'Walked copy' } },
    'PUT /chatbots/:id/simple/config': { body: { instruction: 'Taken over', model_id: ids.model } },
    'PUT /chatbots/:id/chatflow/config': { body: { configuration: echoFlow() } },
    'POST /chatbots/:id/users/:userId/grant': { body: {} },
    'POST /chatbots/:id/runs': { body: { inputs: { query: 'hi' } } },
    'POST /runs/:id/cancel': { body: {} },
    'POST /chat-interface/conversations': { body: { title: 'Walked', chatbot_id: ids.simple } },
    'PUT /chat-interface/conversations/:id': { body: { title: 'Taken over' } },
    'POST /chat-interface/conversations/:id/simple/message': { body: { messages } },
    'POST /chat-interface/conversations/:id/chatflow/message': { body: { input_data: { query: 'hi' } } },
    'POST /chat-interface/conversations/:id/workflow/message': { body: { input_data: { query: 'hi' } } },
    // Ids carried in the query.
    'GET /chatbots': { query: `workspace_id=${ids.workspace}` },
    'GET /providers': { query: `workspace_id=${ids.workspace}` },
    'GET /models_with_partial_server': { query: `workspace_id=${ids.workspace}` },
    'GET /models_embeddings': { query: `workspace_id=${ids.workspace}` },
  };
  return samples[name(route)] ?? {};
}

/** Each string of a body in turn (and one key) given a NUL byte: the bodies a NUL can hide in. */
function withNulBytes(body: Record<string, unknown>): unknown[] {
  const variants: unknown[] = [{ ...body, ['field\u0000']: 'x' }];
  const visit = (value: unknown, rebuild: (v: unknown) => unknown): void => {
    if (typeof value === 'string') variants.push(rebuild(`${value}\u0000tail`));
    else if (Array.isArray(value))
      value.forEach((item, i) => visit(item, (v) => rebuild(value.map((x, j) => (j === i ? v : x)))));
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) visit(item, (v) => rebuild({ ...value, [key]: v }));
  };
  visit(body, (v) => v);
  return variants;
}

/** The body with a value nested `depth` deep placed inside each of its inner objects in turn. */
function withDeepValues(body: Record<string, unknown>, depth: number): string[] {
  const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const marker = '"__deep__"';
  const variants: string[] = [];
  const visit = (value: unknown, rebuild: (v: unknown) => unknown, top: boolean): void => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    if (!top) variants.push(JSON.stringify(rebuild({ ...value, deep: '__deep__' })).replace(marker, nested));
    for (const [key, item] of Object.entries(value)) {
      visit(item, (v) => rebuild({ ...value, [key]: v }), false);
    }
  };
  visit(body, (v) => v, true);
  return variants;
}

async function send(
  route: Route,
  options: { url?: string; token?: string; payload?: string; query?: string; contentType?: string },
) {
  const url = (options.url ?? route.url) + (options.query ? `?${options.query}` : '');
  const res = await t.app.inject({
    method: route.method as Method,
    url,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.payload !== undefined ? { 'content-type': options.contentType ?? 'application/json' } : {}),
    },
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
  });
  return {
    status: res.statusCode,
    text: res.body,
    json: () => JSON.parse(res.body) as Record<string, unknown>,
  };
}

/** A clear error: a 4xx with `{detail, code}`, never a 500. */
function expectClearRefusal(res: { status: number; text: string }, what: string) {
  expect(res.status, `${what} -> ${res.status} ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what} -> ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  const body = JSON.parse(res.text) as { detail?: unknown; code?: unknown };
  expect(typeof body.detail, what).toBe('string');
  expect(typeof body.code, what).toBe('string');
}

function leaks(text: string): string[] {
  return secrets.filter((s) => text.includes(s));
}

describe('every route, walked as a hostile caller', () => {
  it('every path parameter can be given an id, and every route that takes a body a valid body', () => {
    const unmapped = routes()
      .filter((r) => !isPublic(r))
      .flatMap((r) => withIds(r, idsOfA).missing.map((p) => `${name(r)} (:${p})`));
    expect(unmapped).toEqual([]);
    const withoutSample = routes().filter((r) => takesBody(r) && !validRequest(r, idsOfA).body);
    expect(withoutSample.map(name)).toEqual([]);
  });

  it('without a token every non-public route answers 401, and a forged one too', async () => {
    for (const route of routes().filter((r) => !isPublic(r))) {
      const { url } = withIds(route, idsOfA);
      for (const token of [undefined, 'not.a.jwt', `${a.admin.token.slice(0, -4)}AAAA`]) {
        const res = await send(route, { url, token, payload: takesBody(route) ? '{}' : undefined });
        expect(res.status, `${name(route)} token=${token?.slice(0, 8)}`).toBe(401);
        expectClearRefusal(res, name(route));
      }
    }
  });

  it("another organization's ids answer 404 (or a refusal) and never its data", async () => {
    for (const route of routes().filter((r) => !isPublic(r))) {
      const { url, missing } = withIds(route, idsOfA);
      if (missing.length > 0) continue;
      const sample = validRequest(route, idsOfA);
      const namesAnId =
        url !== route.url ||
        sample.query !== undefined ||
        JSON.stringify(sample.body ?? {}).match(/[0-9a-f-]{36}/);
      const res = await send(route, {
        url,
        token: b.admin.token,
        query: sample.query,
        payload: takesBody(route) ? JSON.stringify(sample.body ?? {}) : undefined,
      });
      expect(leaks(res.text), `${name(route)} leaked`).toEqual([]);
      expect(res.status, `${name(route)} -> ${res.status} ${res.text.slice(0, 200)}`).toBeLessThan(500);
      if (namesAnId) {
        expect(res.status, `${name(route)} -> ${res.status} ${res.text.slice(0, 200)}`).toBe(404);
        expectClearRefusal(res, name(route));
      }
    }
  });

  it("organization A's data is exactly as it was", async () => {
    const token = a.admin.token;
    const ws = await call(t.app, 'GET', '/workspaces', { token });
    expect(ws.body.workspaces.map((w: { name: string }) => w.name)).toContain('A-secret-workspace');
    const bot = await call(t.app, 'GET', `/chatbots/${idsOfA.simple}`, { token });
    expect(bot.body.chatbot.name).toBe('A-secret-simple');
    const user = await call(t.app, 'GET', `/users/${idsOfA.user}`, { token });
    expect(user.body.user.user_role_id).toBe('user');
    const members = await call(t.app, 'GET', `/users/workspace/${idsOfA.workspace}`, { token });
    expect(members.body.users.map((u: { id: string }) => u.id)).not.toContain(b.admin.id);
    const conversations = await call(t.app, 'GET', '/chat-interface/conversations', { token });
    expect(conversations.body.conversations.map((c: { title: string }) => c.title)).toContain(
      'A-secret-conversation',
    );
  });

  it('malformed JSON answers 400 on every route that takes a body', async () => {
    for (const route of routes().filter(takesBody)) {
      const { url } = withIds(route, idsOfA);
      for (const payload of ['{"name":', '{name: 1}', '[1,]']) {
        const res = await send(route, { url, token: b.admin.token, payload });
        expect(res.status, `${name(route)} ${payload}`).toBe(400);
        expectClearRefusal(res, name(route));
      }
    }
  });

  it('NUL bytes in bodies, queries and paths answer a clear 4xx on every route', async () => {
    const token = b.admin.token;
    for (const route of routes()) {
      const { url } = withIds(route, idsOfB);
      if (takesBody(route)) {
        for (const body of withNulBytes(validRequest(route, idsOfB).body ?? {})) {
          const res = await send(route, { url, token, payload: JSON.stringify(body) });
          expectClearRefusal(res, `${name(route)} ${JSON.stringify(body).slice(0, 120)}`);
        }
      }
      const withNulParam = route.url.replace(/:([a-zA-Z_]+)/g, '%00');
      if (withNulParam !== route.url) {
        const payload = takesBody(route) ? '{}' : undefined;
        expectClearRefusal(await send(route, { url: withNulParam, token, payload }), `${name(route)} %00`);
      }
      if (route.method === 'GET') {
        const query = validRequest(route, idsOfB).query;
        const res = await send(route, { url, token, query: `${query ? `${query}&` : ''}q=%00` });
        expect(res.status, `${name(route)} ?q=%00 -> ${res.text.slice(0, 200)}`).toBeLessThan(500);
      }
    }
    expect((await call(t.app, 'GET', '/health')).status).toBe(200);
  });

  it('JSON nested thousands deep answers a clear 4xx on every route that takes a body', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const deepObject = `{"inputs":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    for (const route of routes().filter(takesBody)) {
      const { url } = withIds(route, idsOfB);
      const inside = withDeepValues(validRequest(route, idsOfB).body ?? {}, 5000);
      for (const payload of [deep, deepObject, ...inside]) {
        const res = await send(route, { url, token: b.admin.token, payload });
        expectClearRefusal(res, `${name(route)} ${payload.slice(0, 80)}`);
      }
    }
  });

  it("a body over the route's limit answers 413 on every route that takes one", async () => {
    for (const route of routes().filter(takesBody)) {
      const { url } = withIds(route, idsOfA);
      const payload = JSON.stringify({ name: 'x'.repeat(route.bodyLimit) });
      const res = await send(route, { url, token: b.admin.token, payload });
      expect(res.status, `${name(route)} (limit ${route.bodyLimit})`).toBe(413);
      expectClearRefusal(res, name(route));
    }
  });

  it('the server still answers after the walk', async () => {
    expect((await call(t.app, 'GET', '/health')).status).toBe(200);
  });
});
