import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { creditLedger, inferenceLogs, messages, nodeExecutions } from '@atelier/db';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBadInput } from '../../src/plugins/input-guard';
import { finished, flowBot } from '../flows';
import { call, createOrg, fakeModel, startTestApp, type Actor, type Org, type TestApp } from '../helpers';

let t: TestApp;
let fake: FakeProvider;
let org: Org;
let user: Actor;
let ws: string;
let modelId: string;
/** A local API whose JSON answers hold NUL (in a value and in a key), or nest far too deep. */
let api: Server;
let apiUrl: string;

const NUL = '\u0000';
const FFFD = '\uFFFD';

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: 'test-key' });
  api = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url === '/deep') res.end(`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`);
    else res.end(JSON.stringify({ greeting: `hi${NUL}there`, [`k${NUL}`]: 'v' }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  t = await startTestApp({ NODE_URL_POLICY: 'any' });
  org = await createOrg(t.app);
  user = await org.member('user');
  ws = await org.workspace(org.admin, 'Guarded');
  modelId = (await fakeModel(t.app, org, ws, fake.url)).modelId;
  await call(t.app, 'PUT', `/models/${modelId}`, {
    token: org.admin.token,
    body: { pricing: { input_per_1k: 1, output_per_1k: 1 } },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await new Promise((resolve) => api.close(resolve));
});

function expectRefused(res: { status: number; body: { code?: string; detail?: string } }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.code).toBe('invalid_text');
  expect(res.body.detail).toBe(`${field} contains a NUL character, which is not allowed.`);
}

describe('the edge refuses NUL characters, naming the field', () => {
  const id = randomUUID();
  it('in the body of every kind of write: workspace, profile, title, page view, run input, chat message', async () => {
    const admin = org.admin.token;
    const cases: [string, 'POST' | 'PUT' | 'PATCH', string, unknown, string][] = [
      [admin, 'POST', '/workspaces', { name: `Work${NUL}space` }, 'body.name'],
      [user.token, 'PATCH', '/users/profile/me', { firstName: `Ann${NUL}` }, 'body.firstName'],
      [user.token, 'PATCH', '/users/profile/me', { lastName: 'Lee', jobTitle: `${NUL}` }, 'body.jobTitle'],
      [user.token, 'PUT', `/chat-interface/conversations/${id}`, { title: `a${NUL}b` }, 'body.title'],
      [user.token, 'POST', '/chat-interface/conversations', { title: NUL, chatbot_id: id }, 'body.title'],
      [user.token, 'POST', '/analytics/page-views', { name: 'Home', path: `/x${NUL}` }, 'body.path'],
      [
        admin,
        'POST',
        `/chatbots/${id}/runs`,
        { inputs: { topic: { list: ['ok', `no${NUL}`] } } },
        'body.inputs.topic.list[1]',
      ],
      [
        user.token,
        'POST',
        `/chat-interface/conversations/${id}/simple/message`,
        { messages: [{ role: 'user', content: [{ type: 'text', text: `hello${NUL}` }] }] },
        'body.messages[0].content[0].text',
      ],
      [
        user.token,
        'POST',
        `/chat-interface/conversations/${id}/chatflow/message`,
        { input_data: { query: NUL } },
        'body.input_data.query',
      ],
    ];
    for (const [token, method, url, body, field] of cases) {
      expectRefused(await call(t.app, method, url, { token, body }), field);
    }
  });

  it('in keys, the query string and path parameters', async () => {
    const key = await call(t.app, 'POST', `/chatbots/${id}/runs`, {
      token: org.admin.token,
      body: { inputs: { [`to${NUL}pic`]: 'x' } },
    });
    expect(key.status).toBe(422);
    expect(key.body).toEqual({
      code: 'invalid_text',
      detail: 'body.inputs.to\\0pic is a key with a NUL character, which is not allowed.',
    });
    expectRefused(
      await call(t.app, 'GET', `/models?workspace_id=%00`, { token: org.admin.token }),
      'query.workspace_id',
    );
    expectRefused(await call(t.app, 'GET', `/runs/ab%00cd`, { token: org.admin.token }), 'params.id');
  });

  it('bodies nested too deep answer 4xx before any handler, never 500', async () => {
    // Built as text: the test's own JSON.stringify could not write it.
    const deep = `{"inputs":{"topic":${'{"a":'.repeat(5_000)}"leaf"${'}'.repeat(5_000)}}}`;
    const res = await call(t.app, 'POST', `/chatbots/${id}/runs`, {
      token: org.admin.token,
      body: deep,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('too_deep');
    expect(res.body.detail).toMatch(/^body\.inputs\.topic(\.a)+ is nested more than 64 levels deep/);

    // A million nested arrays: JSON.parse takes it (V8 parses iteratively); the walk stops at 64.
    const arrays = `{"messages":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`;
    const huge = await t.app.inject({
      method: 'POST',
      url: `/chat-interface/conversations/${id}/simple/message`,
      payload: arrays,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    });
    expect(huge.statusCode).toBe(422);
    expect(huge.json().code).toBe('too_deep');
    expect((await call(t.app, 'GET', '/health')).status).toBe(200);
  });

  it('the walk is iterative and stops at the first problem', () => {
    let deep: unknown = `x${NUL}`;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findBadInput(deep, 'body', 300_000)).toEqual({
      kind: 'nul',
      path: `body${'[0]'.repeat(200_000)}`,
    });
    expect(findBadInput({ a: [1, { b: 'fine' }], c: null }, 'body')).toBeNull();
  });
});

describe('whatever a model or a node returns is stored', () => {
  it('a chat answer holding NUL is stored, logged and charged', async () => {
    const botId = (
      await call(t.app, 'POST', '/chatbots', {
        token: org.admin.token,
        body: { workspace_id: ws, name: 'Nul bot', type: 'simple' },
      })
    ).body.id as string;
    await call(t.app, 'PUT', `/chatbots/${botId}/simple/config`, {
      token: org.admin.token,
      body: { instruction: 'Echo.', model_id: modelId, fallback_model_id: null, store_conversations: true },
    });
    await call(t.app, 'POST', `/chatbots/${botId}/publish`, { token: org.admin.token });
    await call(t.app, 'POST', `/chatbots/${botId}/users/${user.id}/grant`, { token: org.admin.token });
    const conversationId = (
      await call(t.app, 'POST', '/chat-interface/conversations', {
        token: user.token,
        body: { title: '', chatbot_id: botId },
      })
    ).body.conversation_id as string;

    // The edge refuses NUL from clients, so the only way one arrives is from a model: the fake model
    // echoes the message, which is handed to the service directly here (as if a model had said it).
    const principal = { userId: user.id, organizationId: org.id, role: 'user' as const, email: user.email };
    const prepared = await t.app.services.simpleChat.prepare(principal, conversationId, {
      messages: [{ role: 'user', content: `say${NUL}this` }],
    });
    const sent: { type: string }[] = [];
    await t.app.services.simpleChat.run(prepared, (e) => sent.push(e), new AbortController().signal);
    expect(sent.at(-1)?.type).toBe('end');

    const stored = await t.app.db.select().from(messages).where(eq(messages.conversationId, conversationId));
    expect(stored.map((m) => [m.role, m.content])).toEqual(
      expect.arrayContaining([
        ['user', [{ type: 'text', text: `say${FFFD}this` }]],
        ['assistant', [{ type: 'text', text: `Echo: say${FFFD}this` }]],
      ]),
    );
    const [log] = await t.app.db
      .select()
      .from(inferenceLogs)
      .where(eq(inferenceLogs.conversationId, conversationId));
    expect(log).toMatchObject({ status: 'success', response: `Echo: say${FFFD}this` });
    expect(log!.credits).toBeGreaterThan(0);
    const charges = await t.app.db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, org.id), eq(creditLedger.description, 'Chat with Nul bot')));
    expect(charges).toHaveLength(1);
    expect(charges[0]!.monthlyDelta + charges[0]!.extraDelta).toBeCloseTo(-log!.credits);
  });

  const flow = (url: string) => ({
    nodes: [
      { id: 'input_in01', type: 'input', data: { label: 'in', fields: [] }, position: { x: 0, y: 0 } },
      {
        id: 'api_ab12',
        type: 'api_request',
        data: { label: 'api', fields: { method: 'GET', url } },
        position: { x: 200, y: 0 },
      },
      {
        id: 'llm_ab12',
        type: 'llm',
        data: { label: 'llm', fields: { modelId, prompt: 'Repeat {{#api_ab12.body.greeting#}}' } },
        position: { x: 400, y: 0 },
      },
      {
        id: 'output_ou01',
        type: 'output',
        data: { label: 'out', fields: { response: '{{#llm_ab12.response#}}' } },
        position: { x: 600, y: 0 },
      },
    ],
    edges: [
      { id: 'e1', source: 'input_in01', target: 'api_ab12' },
      { id: 'e2', source: 'api_ab12', target: 'llm_ab12' },
      { id: 'e3', source: 'llm_ab12', target: 'output_ou01' },
    ],
  });

  it('a flow whose node outputs hold NUL succeeds, with its outputs, log and answer stored', async () => {
    const botId = await flowBot(t.app, org, ws, 'chatflow', flow(`${apiUrl}/nul`));
    await call(t.app, 'POST', `/chatbots/${botId}/users/${user.id}/grant`, { token: org.admin.token });
    const conversationId = (
      await call(t.app, 'POST', '/chat-interface/conversations', {
        token: user.token,
        body: { title: '', chatbot_id: botId },
      })
    ).body.conversation_id as string;
    const streamed = await call(
      t.app,
      'POST',
      `/chat-interface/conversations/${conversationId}/chatflow/message`,
      {
        token: user.token,
        body: { input_data: { query: 'go' } },
      },
    );
    expect(streamed.status).toBe(200);
    const runId = /"run_id":"([0-9a-f-]+)"/.exec(String(streamed.body))![1]!;
    const run = await finished(t.app, org.admin.token, runId);
    expect(run.status, run.error).toBe('succeeded');
    expect(run.final_output).toBe(`Echo: Repeat hi${FFFD}there`);
    const api = run.node_executions.find((e: { node_id: string }) => e.node_id === 'api_ab12');
    expect(api.outputs.body).toEqual({ greeting: `hi${FFFD}there`, [`k${FFFD}`]: 'v' });

    const [log] = await t.app.db
      .select()
      .from(inferenceLogs)
      .where(eq(inferenceLogs.conversationId, conversationId));
    expect(log).toMatchObject({ status: 'success', response: `Echo: Repeat hi${FFFD}there` });
    const stored = await t.app.db.select().from(messages).where(eq(messages.conversationId, conversationId));
    expect(stored.find((m) => m.role === 'assistant')?.content).toEqual([
      { type: 'text', text: `Echo: Repeat hi${FFFD}there` },
    ]);
  });

  it('a node whose output is nested too deep to store ends the run as failed, with the reason', async () => {
    const botId = await flowBot(t.app, org, ws, 'workflow', flow(`${apiUrl}/deep`));
    const started = await call(t.app, 'POST', `/chatbots/${botId}/runs`, {
      token: org.admin.token,
      body: { inputs: { query: 'go' } },
    });
    expect(started.status).toBe(201);
    const run = await finished(t.app, org.admin.token, started.body.run_id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/api_ab12 gave outputs that are not JSON/);
    const executions = await t.app.db
      .select()
      .from(nodeExecutions)
      .where(eq(nodeExecutions.runId, started.body.run_id));
    expect(executions.map((e) => [e.nodeId, e.status])).toEqual(
      expect.arrayContaining([['api_ab12', 'failed']]),
    );
  });
});
