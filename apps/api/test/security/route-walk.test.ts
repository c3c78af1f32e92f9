import { recordAnswer } from '@atelier/runtime';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoFlow, finished, flowBot } from '../flows';
import { call, createOrg, fakeModel, startTestApp, type Actor, type Org, type TestApp } from '../helpers';
import { insertLogs } from '../analytics-fixtures';
import { builtinCollection, upload } from '../knowledge-fixtures';

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
  | 'workspace'
  | 'user'
  | 'provider'
  | 'model'
  | 'simple'
  | 'flow'
  | 'conversation'
  | 'message'
  | 'run'
  | 'embeddings'
  | 'connector'
  | 'collection'
  | 'storeName'
  | 'document'
  | 'tool'
  | 'apiKey'
  | 'publicRun'
  | 'publicConversation'
  | 'log'
  | 'embedToken'
  | 'embedConversation',
  string
>;
/** Each organization's API key (of its workflow): the public API's routes are walked with it. */
const keys = new Map<string, string>();
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
  // An answer in it, to be rated (written straight: the walk needs its id, not a model call).
  const message = await recordAnswer(t.app.db, conversation, [{ type: 'text', text: `${label}-answer` }]);
  const run = (
    await call(t.app, 'POST', `/chatbots/${flow}/runs`, {
      token,
      body: { inputs: { query: `${label}-question` } },
    })
  ).body.run_id as string;
  await finished(t.app, token, run);
  const knowledge = await knowledgeWorld(org, label, workspace);
  const created = await call(t.app, 'POST', `/chatbots/${flow}/api_keys`, {
    token,
    body: { name: `${label}-key` },
  });
  keys.set(org.id, created.body.key as string);
  const publicRun = await call(t.app, 'POST', '/v1/workflows/runs', {
    token: created.body.key as string,
    body: { user: `${label}-end-user`, inputs: { query: `${label}-public-question` } },
  });
  const [log] = await insertLogs(t.app, org, workspace, [
    {
      chatbotId: simple,
      chatbotName: `${label}-simple`,
      userId: user.id,
      createdAt: new Date(),
      userMessage: `${label}-log-message`,
      response: `${label}-log-answer`,
    },
  ]);
  const embed = await call(t.app, 'PUT', `/chatbots/${simple}/embed`, {
    token,
    body: { enabled: true, allowed_origins: [`https://${label.toLowerCase()}.example.com`] },
  });
  const embedToken = embed.body.embed.token as string;
  const embedded = await t.app.inject({
    method: 'POST',
    url: `/embed/${embedToken}/messages?user=${label}-browser`,
    payload: { message: `${label}-embed-question` },
  });
  const embedConversation = /"conversation_id":"([^"]+)"/.exec(embedded.body)?.[1] ?? '';
  const ids = {
    workspace,
    user: user.id,
    provider: providerId,
    model: modelId,
    simple,
    flow,
    conversation,
    message,
    run,
    log: log!,
    ...knowledge.ids,
    apiKey: created.body.id as string,
    publicRun: publicRun.body.run_id as string,
    publicConversation: publicRun.body.conversation_id as string,
    embedToken,
    embedConversation,
  };
  expect(Object.values(ids).every(Boolean)).toBe(true);
  const texts = [...Object.values(ids), org.id, org.admin.id, org.admin.email, user.email];
  for (const part of [
    'workspace',
    'simple',
    'instruction',
    'conversation',
    'question',
    'log-message',
    'log-answer',
  ]) {
    texts.push(`${label}-${part}`);
  }
  texts.push(...knowledge.texts, created.body.key as string, `${label}-key`, `${label}-end-user`);
  texts.push(`${label}-public-question`, `${label}-embed-question`);
  return { ids, texts };
}

/** A connector (its password a secret), a built-in collection with a document, and a tool. */
async function knowledgeWorld(org: Org, label: string, workspace: string) {
  const token = org.admin.token;
  const password = `${label}-pg-password`;
  await call(t.app, 'POST', '/connectors', {
    token,
    body: {
      workspace_id: workspace,
      name: `${label}-connector`,
      kind: 'pgvector',
      settings: { url: `postgres://reader:${password}@127.0.0.1:5432/vectors` },
    },
  });
  const { collectionId, modelId } = await builtinCollection(
    t.app,
    org,
    workspace,
    fake.url,
    `${label}-collection`,
  );
  const collection = (await call(t.app, 'GET', `/rag_collections/${collectionId}`, { token })).body
    .rag_collection;
  const uploaded = await upload(t.app, token, collectionId, [
    { filename: `${label}-document.txt`, content: `${label}-document-text` },
  ]);
  const tool = await call(t.app, 'POST', '/tools', {
    token,
    body: {
      workspace_id: workspace,
      name: `${label}-tool`,
      type: 'notion',
      settings: { integration_token: `${label}-notion-token` },
    },
  });
  return {
    ids: {
      embeddings: modelId,
      connector: collection.connector_id as string,
      collection: collectionId,
      storeName: collection.collection_name as string,
      document: uploaded.body.documents[0].id as string,
      tool: tool.body.tool_id as string,
    },
    texts: [password, `${label}-notion-token`, `${label}-collection`, `${label}-document`, `${label}-tool`],
  };
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
/** The embed routes' caller is the token in their path, not a bearer token. */
const isEmbed = (r: Route) => r.access === 'embed';
/** How a hostile caller of organization B calls a route: its admin's token, or its API key (/v1). */
const hostile = (r: Route) =>
  r.access === 'api_key' ? keys.get(b.id)! : isEmbed(r) ? undefined : b.admin.token;
/** A's ids, except the credential: an embed route is called with B's own embed token. */
const hostileIds = (r: Route): Ids => (isEmbed(r) ? { ...idsOfA, embedToken: idsOfB.embedToken } : idsOfA);
const takesBody = (r: Route) => ['POST', 'PUT', 'PATCH'].includes(r.method);

/** An organization's id for a path parameter, chosen by the route's resource. */
function idFor(ids: Ids, url: string, param: string): string | undefined {
  const p = (prefix: string) => url.startsWith(prefix);
  if (param === 'user_id' || param === 'userId') return ids.user;
  if (param === 'workspace_id') return ids.workspace;
  if (param === 'documentId') return ids.document;
  if (param === 'messageId') return ids.message;
  if (param === 'key_id') return ids.apiKey;
  if (param === 'token') return ids.embedToken;
  if (p('/embed/')) return ids.embedConversation;
  if (p('/v1/runs/')) return ids.publicRun;
  if (p('/v1/conversations/')) return ids.publicConversation;
  if (param === 'name' && p('/connectors/')) return ids.storeName;
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
  if (p('/connectors/')) return ids.connector;
  if (p('/rag_collections/')) return ids.collection;
  if (p('/tools/')) return ids.tool;
  if (p('/analytics/logs/')) return ids.log;
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
    'PUT /chat-interface/conversations/:id/messages/:messageId/feedback': { body: { rating: 'down' } },
    'POST /chat-interface/conversations/:id/simple/message': { body: { messages } },
    'POST /chat-interface/conversations/:id/chatflow/message': { body: { input_data: { query: 'hi' } } },
    'POST /chat-interface/conversations/:id/workflow/message': { body: { input_data: { query: 'hi' } } },
    'POST /connectors': {
      body: {
        workspace_id: ids.workspace,
        name: 'Walked',
        kind: 'qdrant',
        settings: { url: 'http://127.0.0.1:6333', api_key: 'walked-key' },
      },
    },
    'PUT /connectors/:id': { body: { name: 'Taken over', settings: { url: 'http://127.0.0.1:6334' } } },
    'POST /connectors/:id/test': { body: {} },
    'POST /rag_collections': {
      body: { workspace_id: ids.workspace, name: 'Walked', embeddings_model_id: ids.embeddings },
    },
    'PUT /rag_collections/:id': { body: { name: 'Taken over', top_k: 3 } },
    'POST /rag_collections/:id/query': { body: { query: 'hi', filter: { field: 'a', op: 'eq', value: 1 } } },
    'POST /rag_collections/:id/documents': { body: {} },
    'PATCH /rag_collections/:id/documents/:documentId': { body: { metadata: { owner: 'walker' } } },
    'PATCH /rag_collections/:id/documents': {
      body: { document_ids: [ids.document], set: { owner: 'walker' } },
    },
    // An address literal: no name to resolve on a machine without DNS.
    'POST /rag_collections/:id/documents/web': { body: { url: 'http://198.51.100.20/help/returns' } },
    'POST /tools': {
      body: {
        workspace_id: ids.workspace,
        name: 'Walked',
        type: 'notion',
        settings: { integration_token: 'w' },
      },
    },
    'PUT /tools/:id': { body: { name: 'Taken over', settings: { integration_token: 'taken' } } },
    'POST /chatbots/:id/api_keys': { body: { name: 'Walked key' } },
    'PUT /chatbots/:id/embed': { body: { enabled: false, allowed_origins: ['https://walked.example.com'] } },
    'POST /chatbots/:id/embed/token': { body: {} },
    'POST /embed/:token/messages': { body: { message: 'hi' }, query: 'user=A-secret-browser' },
    'GET /embed/:token/config': { query: 'user=A-secret-browser' },
    'GET /embed/:token/conversations': { query: 'user=A-secret-browser' },
    'GET /embed/:token/conversations/:id/messages': { query: 'user=A-secret-browser' },
    'POST /v1/chat/completions': { body: { model: ids.flow, messages, user: 'walker' } },
    'POST /v1/chat-messages': { body: { user: 'walker', message: 'hi', stream: false } },
    'POST /v1/workflows/runs': { body: { user: 'walker', inputs: { query: 'hi' } } },
    'POST /v1/runs/:id/cancel': { body: { user: 'A-secret-end-user' } },
    'GET /v1/runs/:id': { query: 'user=A-secret-end-user' },
    'GET /v1/runs/:id/events': { query: 'user=A-secret-end-user' },
    'GET /v1/conversations': { query: 'user=A-secret-end-user' },
    'GET /v1/conversations/:id/messages': { query: 'user=A-secret-end-user' },
    // Ids carried in the query.
    'GET /connectors': { query: `workspace_id=${ids.workspace}` },
    'GET /analytics/overview': { query: `workspace_id=${ids.workspace}` },
    'GET /analytics/performance': { query: `workspace_id=${ids.workspace}` },
    'GET /analytics/engagement': { query: `workspace_id=${ids.workspace}` },
    'GET /analytics/logs': { query: `workspace_id=${ids.workspace}&chatbot_id=${ids.simple}` },
    'GET /analytics/logs/filters': { query: `workspace_id=${ids.workspace}` },
    'GET /analytics/logs/export': { query: `workspace_id=${ids.workspace}&user_id=${ids.user}` },
    'GET /rag_collections_all': { query: `workspace_id=${ids.workspace}` },
    'GET /rag_collections_with_partial_server': { query: `workspace_id=${ids.workspace}` },
    'GET /tools': { query: `workspace_id=${ids.workspace}` },
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
    for (const route of routes().filter((r) => !isPublic(r) && !isEmbed(r))) {
      const { url } = withIds(route, idsOfA);
      for (const token of [undefined, 'not.a.jwt', `${a.admin.token.slice(0, -4)}AAAA`]) {
        const res = await send(route, { url, token, payload: takesBody(route) ? '{}' : undefined });
        expect(res.status, `${name(route)} token=${token?.slice(0, 8)}`).toBe(401);
        expectClearRefusal(res, name(route));
      }
    }
  });

  it("an embed route with a made-up or another chatbot's token answers 404, never data", async () => {
    for (const route of routes().filter(isEmbed)) {
      for (const token of [`emb_${'Z'.repeat(43)}`, 'not-a-token']) {
        const { url } = withIds(route, { ...idsOfA, embedToken: token });
        const sample = validRequest(route, idsOfA);
        const res = await send(route, {
          url,
          query: sample.query,
          payload: takesBody(route) ? JSON.stringify(sample.body) : undefined,
        });
        expect(res.status, `${name(route)} ${token}`).toBe(404);
        expectClearRefusal(res, name(route));
        expect(leaks(res.text)).toEqual([]);
      }
    }
  });

  it("another organization's ids answer 404 (or a refusal) and never its data", async () => {
    for (const route of routes().filter((r) => !isPublic(r))) {
      const { url, missing } = withIds(route, hostileIds(route));
      if (missing.length > 0) continue;
      const sample = validRequest(route, idsOfA);
      // (an embed route's own token is B's: only a conversation id in its path is A's)
      const namesAnId = isEmbed(route)
        ? route.url.includes(':id')
        : url !== route.url ||
          // (a `user` string of the public API is no id: another key's user simply has nothing)
          /[0-9a-f-]{36}/.test(sample.query ?? '') ||
          JSON.stringify(sample.body ?? {}).match(/[0-9a-f-]{36}/);
      const res = await send(route, {
        url,
        token: hostile(route),
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
    const collection = await call(t.app, 'GET', `/rag_collections/${idsOfA.collection}`, { token });
    expect(collection.body.rag_collection).toMatchObject({ name: 'A-secret-collection', document_count: 1 });
    const tool = await call(t.app, 'GET', `/tools/${idsOfA.tool}`, { token });
    expect(tool.body.data.name).toBe('A-secret-tool');
    const apiKeys = await call(t.app, 'GET', `/chatbots/${idsOfA.flow}/api_keys`, { token });
    expect(apiKeys.body.api_keys.map((k: { name: string }) => k.name)).toEqual(['A-secret-key']);
    const conversation = `/v1/conversations/${idsOfA.publicConversation}/messages?user=A-secret-end-user`;
    const history = await call(t.app, 'GET', conversation, { token: keys.get(a.id)! });
    expect(history.body.history[0].content).toEqual([{ type: 'text', text: 'A-secret-public-question' }]);
    const embed = await call(t.app, 'GET', `/chatbots/${idsOfA.simple}/embed`, { token });
    expect(embed.body.embed).toMatchObject({ token: idsOfA.embedToken, enabled: true });
    const embedded = await call(
      t.app,
      'GET',
      `/embed/${idsOfA.embedToken}/conversations/${idsOfA.embedConversation}/messages?user=A-secret-browser`,
    );
    expect(embedded.body.history[0].content).toEqual([{ type: 'text', text: 'A-secret-embed-question' }]);
  });

  it('malformed JSON answers 400 on every route that takes a body', async () => {
    for (const route of routes().filter(takesBody)) {
      const { url } = withIds(route, idsOfA);
      for (const payload of ['{"name":', '{name: 1}', '[1,]']) {
        const res = await send(route, { url, token: hostile(route), payload });
        expect(res.status, `${name(route)} ${payload}`).toBe(400);
        expectClearRefusal(res, name(route));
      }
    }
  });

  it('NUL bytes in bodies, queries and paths answer a clear 4xx on every route', async () => {
    for (const route of routes()) {
      const token = hostile(route);
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
        const res = await send(route, { url, token: hostile(route), payload });
        expectClearRefusal(res, `${name(route)} ${payload.slice(0, 80)}`);
      }
    }
  });

  it("a body over the route's limit answers 413 on every route that takes one", async () => {
    for (const route of routes().filter(takesBody)) {
      const { url } = withIds(route, idsOfA);
      const payload = JSON.stringify({ name: 'x'.repeat(route.bodyLimit) });
      const res = await send(route, { url, token: hostile(route), payload });
      expect(res.status, `${name(route)} (limit ${route.bodyLimit})`).toBe(413);
      expectClearRefusal(res, name(route));
    }
  });

  it('the server still answers after the walk', async () => {
    expect((await call(t.app, 'GET', '/health')).status).toBe(200);
  });
});
