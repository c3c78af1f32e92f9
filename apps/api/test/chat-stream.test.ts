import type { AddressInfo } from 'node:net';
import { conversations, creditLedger, creditPlans, inferenceLogs, messages } from '@atelier/db';
import { currentLogContext } from '@atelier/telemetry';
import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { call, createOrg, testConfig, type Actor, type Org } from './helpers';

/** Streams go over real HTTP, so that we see chunks arrive one after another. */
let fake: FakeProvider;
let app: FastifyInstance;
let base: string;
let org: Org;
let user: Actor;
let ws: string;
let providerId: string;

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: 'test-key' });
  app = await buildApp({
    // A stall is a silence of 3 s: long enough that a loaded 2-core machine running every suite at once
    // never stalls a healthy stream (800 ms did), short enough for the stalled-provider test.
    config: testConfig({ PROVIDER_TIMEOUT_MS: '3000', HEARTBEAT_MS: '100' }),
    database: await sharedTestDatabase(),
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  org = await createOrg(app);
  user = await org.member('user');
  ws = await org.workspace(org.admin, 'Chat');
  providerId = (
    await call(app, 'POST', '/providers', {
      token: org.admin.token,
      body: {
        workspace_id: ws,
        name: 'Fake',
        kind: 'openai_compatible',
        base_url: `${fake.url}/v1`,
        api_key: 'test-key',
      },
    })
  ).body.provider_id;
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

async function model(name: string, type = 'llm', pricing = { input_per_1k: 1, output_per_1k: 1 }) {
  const res = await call(app, 'POST', '/models', {
    token: org.admin.token,
    body: { workspace_id: ws, provider_id: providerId, model_name: name, model_type: type, pricing },
  });
  return res.body.model_id as string;
}

async function bot(options: {
  model: string;
  fallback?: string;
  store?: boolean;
  grant?: boolean;
  name?: string;
}) {
  const id = (
    await call(app, 'POST', '/chatbots', {
      token: org.admin.token,
      body: { workspace_id: ws, name: options.name ?? 'Bot', type: 'simple' },
    })
  ).body.id;
  await call(app, 'PUT', `/chatbots/${id}/simple/config`, {
    token: org.admin.token,
    body: {
      instruction: 'You are terse.',
      model_id: options.model,
      fallback_model_id: options.fallback ?? null,
      store_conversations: options.store ?? true,
    },
  });
  await call(app, 'POST', `/chatbots/${id}/publish`, { token: org.admin.token });
  if (options.grant !== false)
    await call(app, 'POST', `/chatbots/${id}/users/${user.id}/grant`, { token: org.admin.token });
  return id as string;
}

async function conversation(chatbotId: string, actor = user) {
  const res = await call(app, 'POST', '/chat-interface/conversations', {
    token: actor.token,
    body: { title: '', chatbot_id: chatbotId },
  });
  expect(res.status).toBe(201);
  return res.body.conversation_id as string;
}

interface Received {
  status: number;
  headers: Headers;
  events: { data: string; at: number }[];
  json: () => { type: string; [k: string]: unknown }[];
  heartbeats: () => number;
}

async function send(
  conversationId: string,
  text: string | object[],
  options: { signal?: AbortSignal; actor?: Actor; onEvent?: (e: string) => void; requestId?: string } = {},
): Promise<Received> {
  const res = await fetch(`${base}/chat-interface/conversations/${conversationId}/simple/message`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${(options.actor ?? user).token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(options.requestId ? { 'x-request-id': options.requestId } : {}),
    },
    body: JSON.stringify({ messages: [{ role: 'user', content: text }] }),
    signal: options.signal ?? null,
  });
  const events: { data: string; at: number }[] = [];
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer.slice(0, cut).replace(/^data: /, '');
          buffer = buffer.slice(cut + 2);
          events.push({ data, at: performance.now() });
          options.onEvent?.(data);
        }
      }
    } catch (error) {
      if (!options.signal?.aborted) throw error;
    }
  } else {
    events.push({ data: await res.text(), at: performance.now() });
  }
  return {
    status: res.status,
    headers: res.headers,
    events,
    // Heartbeats may come at any time (also while the answer is being stored); tests look past them.
    json: () =>
      events
        .filter((e) => e.data.startsWith('{') && !e.data.includes('"type":"heartbeat"'))
        .map((e) => JSON.parse(e.data)),
    heartbeats: () => events.filter((e) => e.data.includes('"type":"heartbeat"')).length,
  };
}

const logsOf = async (conversationId: string) =>
  app.db
    .select()
    .from(inferenceLogs)
    .where(eq(inferenceLogs.conversationId, conversationId))
    .orderBy(asc(inferenceLogs.createdAt));

describe('simple chat streaming', () => {
  it('streams chunks before the answer ends, ends with [DONE], and stores history and a log', async () => {
    const id = await bot({ model: await model('gpt-4o-mini') });
    const conv = await conversation(id);
    fake.setTokenDelay(30);
    const received = await send(conv, 'tell me something nice today');
    fake.setTokenDelay(0);
    expect(received.status).toBe(200);
    expect(received.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(received.headers.get('x-accel-buffering')).toBe('no');
    expect(received.headers.get('content-encoding')).toBeNull();
    const events = received.json();
    expect(events[0]).toMatchObject({ type: 'start', conversation_id: conv });
    const texts = received.events.filter((e) => e.data.includes('"type":"text"'));
    expect(texts.length).toBeGreaterThanOrEqual(5);
    expect(texts.at(-1)!.at - texts[0]!.at).toBeGreaterThan(100); // they arrived over time, not at once
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => e.text)
        .join(''),
    ).toBe('Echo: tell me something nice today');
    expect(events.at(-1)).toEqual({ type: 'end', fallback: false });
    expect(received.events.at(-1)!.data).toBe('[DONE]');

    const history = await call(app, 'GET', `/chat-interface/conversations/${conv}/history`, {
      token: user.token,
    });
    expect(
      history.body.history.map((m: { role: string; content: { text: string }[] }) => [
        m.role,
        m.content[0]!.text,
      ]),
    ).toEqual([
      ['user', 'tell me something nice today'],
      ['assistant', 'Echo: tell me something nice today'],
    ]);
    const list = await call(app, 'GET', '/chat-interface/conversations', { token: user.token });
    expect(list.body.conversations[0]).toMatchObject({
      id: conv,
      title: 'tell me something nice today',
      chatbot_type: 'simple',
      last_message_preview: 'Echo: tell me something nice today',
    });

    const [log] = await logsOf(conv);
    expect(log).toMatchObject({
      chatbotId: id,
      userId: user.id,
      providerModelName: 'gpt-4o-mini',
      providerType: 'openai_compatible',
      userMessage: 'tell me something nice today',
      response: 'Echo: tell me something nice today',
      responseWords: 6,
      streamed: true,
      fallback: false,
      error: false,
      status: 'success',
    });
    expect(log!.completePrompt).toContain('system: You are terse.');
    expect(log!.firstTokenMs).toBeGreaterThanOrEqual(0);
    expect(log!.totalMs).toBeGreaterThanOrEqual(log!.firstTokenMs!);
    expect(log!.credits).toBeGreaterThan(0);
  });

  it('an answer is charged: one ledger row and the plan agree with its log, in few statements', async () => {
    const id = await bot({ model: await model('gpt-4o-mini'), name: 'Charged bot' });
    const conv = await conversation(id);
    const plan = async () =>
      (await call(app, 'GET', '/credits/plan', { token: org.admin.token })).body as {
        remaining_monthly_credits: number;
        extra_credits: number;
      };
    const before = await plan();
    // Every statement goes through the pool's (or PGlite's) query method; the request's are those made
    // in its log context (the app's background loops, sweeps and job polls, share the client).
    const client = (app.db as unknown as { session: { client: { query: (...args: unknown[]) => unknown } } })
      .session.client;
    const requestId = 'charged-answer';
    let statements = 0;
    const original = client.query;
    const queries = vi.spyOn(client, 'query').mockImplementation(function (
      this: unknown,
      ...args: unknown[]
    ) {
      if (currentLogContext()?.requestId === requestId) statements += 1;
      return original.apply(this, args);
    });
    const received = await send(conv, 'what does this cost', { requestId });
    queries.mockRestore();
    expect(statements).toBeGreaterThan(0);
    expect(received.json().at(-1)).toEqual({ type: 'end', fallback: false });

    const [log, ...more] = await logsOf(conv);
    expect(more).toHaveLength(0);
    expect(log!.credits).toBeGreaterThan(0);
    const charges = await app.db
      .select()
      .from(creditLedger)
      .where(
        and(eq(creditLedger.organizationId, org.id), eq(creditLedger.description, 'Chat with Charged bot')),
      );
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ kind: 'usage', userId: user.id });
    expect(Number(charges[0]!.monthlyDelta)).toBeCloseTo(-log!.credits, 4);
    expect(charges[0]!.metadata).toMatchObject({ chatbot_id: id, inference_log_id: log!.id });
    const after = await plan();
    expect(before.remaining_monthly_credits - after.remaining_monthly_credits).toBeCloseTo(log!.credits, 4);
    // The user, the load (with the credits), the chatbot access, the question, and one statement for
    // the answer, its log and its charge (with a due monthly renewal).
    expect(statements).toBeLessThanOrEqual(5);
  });

  it('sends heartbeats while the answer is slow', async () => {
    const conv = await conversation(await bot({ model: await model('gpt-4o-mini') }));
    fake.setTokenDelay(150);
    const received = await send(conv, 'a b c d');
    fake.setTokenDelay(0);
    expect(received.heartbeats()).toBeGreaterThanOrEqual(3);
    expect(
      received
        .json()
        .filter((e) => e.type === 'text')
        .map((e) => e.text)
        .join(''),
    ).toBe('Echo: a b c d');
  });

  it('metrics-only chatbots keep no content in their logs', async () => {
    const conv = await conversation(await bot({ model: await model('gpt-4o-mini'), store: false }));
    await send(conv, 'private matter');
    const [log] = await logsOf(conv);
    expect(log).toMatchObject({ userMessage: '', response: '', completePrompt: '', status: 'success' });
    expect(log!.responseWords).toBeGreaterThan(0);
  });

  it('a provider error ends the stream with the inference-error marker and an error log', async () => {
    const conv = await conversation(await bot({ model: await model('fail-401') }));
    const received = await send(conv, 'hi');
    const events = received.json();
    expect(events.find((e) => e.type === 'inference_error')).toMatchObject({
      code: 'bad_credentials',
      status: 502,
    });
    expect(received.events.at(-1)!.data).toBe('[DONE]');
    const [log] = await logsOf(conv);
    expect(log).toMatchObject({ error: true, status: 'error' });
    expect(log!.errorMessage).toMatch(/API key/);
  });

  it('a stalled provider ends the stream with a timeout (504 semantics)', async () => {
    const conv = await conversation(await bot({ model: await model('stall-stream') }));
    const received = await send(conv, 'hello there friend');
    expect(received.json().find((e) => e.type === 'inference_error')).toMatchObject({
      code: 'timeout',
      status: 504,
    });
    const [log] = await logsOf(conv);
    expect(log).toMatchObject({ status: 'error', error: true });
  });

  it('the fallback model answers when the model fails before streaming, and the log says so', async () => {
    const conv = await conversation(
      await bot({ model: await model('fail-500'), fallback: await model('gpt-4o-mini') }),
    );
    const received = await send(conv, 'rescue me');
    const events = received.json();
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => e.text)
        .join(''),
    ).toBe('Echo: rescue me');
    expect(events.at(-1)).toEqual({ type: 'end', fallback: true });
    const [log] = await logsOf(conv);
    expect(log).toMatchObject({ fallback: true, providerModelName: 'gpt-4o-mini', status: 'success' });
  });

  it('a client that leaves aborts the provider call and the call is still logged', async () => {
    const conv = await conversation(await bot({ model: await model('gpt-4o-mini') }));
    // Slow enough (20 words at 150 ms) that the client leaves long before the answer could end,
    // even on a loaded machine.
    fake.setTokenDelay(150);
    await new Promise((r) => setTimeout(r, 200));
    const abortedBefore = fake.aborted();
    const controller = new AbortController();
    let texts = 0;
    await send(
      conv,
      'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen',
      {
        signal: controller.signal,
        onEvent: (data) => {
          if (data.includes('"type":"text"') && ++texts === 2) controller.abort();
        },
      },
    );
    // The delay stays until the server has logged: speeding the fake up now would let the answer
    // finish before the server notices the client left.
    let logs = await logsOf(conv);
    for (let i = 0; i < 40 && logs.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      logs = await logsOf(conv);
    }
    expect(logs[0]).toMatchObject({
      status: 'error',
      error: true,
      errorMessage: 'The client left before the answer ended.',
    });
    expect(logs[0]!.response.length).toBeGreaterThan(0);
    for (let i = 0; i < 40 && fake.aborted() <= abortedBefore; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(fake.aborted()).toBeGreaterThan(abortedBefore);
    fake.setTokenDelay(0);
    const stored = await app.db.select().from(messages).where(eq(messages.conversationId, conv));
    // Stopped: the text so far is kept as the answer (not an error), as the log's response says.
    const partial = stored.find((m) => m.role === 'assistant');
    expect(partial?.error).toBe(false);
    expect(partial?.content).toEqual([{ type: 'text', text: logs[0]!.response }]);
  });

  it('refuses before streaming: out of credits (402), unpublished, revoked, deleted, empty message', async () => {
    const id = await bot({ model: await model('gpt-4o-mini') });
    const conv = await conversation(id);
    const empty = await send(conv, '   ');
    expect([empty.status, JSON.parse(empty.events[0]!.data).code]).toEqual([422, 'message_required']);

    await app.db
      .update(creditPlans)
      .set({ remainingMonthlyCredits: 0, extraCredits: 0 })
      .where(eq(creditPlans.organizationId, org.id));
    const broke = await send(conv, 'hello');
    expect([broke.status, JSON.parse(broke.events[0]!.data).code]).toEqual([402, 'insufficient_credits']);
    await app.db
      .update(creditPlans)
      .set({ remainingMonthlyCredits: 1000 })
      .where(eq(creditPlans.organizationId, org.id));

    await call(app, 'DELETE', `/chatbots/${id}/users/${user.id}/revoke`, { token: org.admin.token });
    const revoked = await send(conv, 'hello');
    expect([revoked.status, JSON.parse(revoked.events[0]!.data).code]).toEqual([
      403,
      'chatbot_access_revoked',
    ]);

    const draft = (
      await call(app, 'POST', '/chatbots/duplicate', { token: org.admin.token, body: { chatbot_id: id } })
    ).body.id;
    await call(app, 'POST', `/chatbots/${draft}/users/${user.id}/grant`, { token: org.admin.token });
    const unpublished = await call(app, 'POST', '/chat-interface/conversations', {
      token: user.token,
      body: { title: '', chatbot_id: draft },
    });
    expect([unpublished.status, unpublished.body.code]).toEqual([409, 'chatbot_unpublished']);

    await call(app, 'DELETE', `/delete_chatbot/${id}`, { token: org.admin.token });
    const gone = await send(conv, 'hello');
    expect([gone.status, JSON.parse(gone.events[0]!.data).code]).toEqual([404, 'chatbot_deleted']);
    // The history of a deleted chatbot's conversation stays readable.
    expect(
      (await call(app, 'GET', `/chat-interface/conversations/${conv}/history`, { token: user.token })).status,
    ).toBe(200);
  });

  it('conversations: rename, delete, and nobody else can read or write them', async () => {
    const conv = await conversation(await bot({ model: await model('gpt-4o-mini') }));
    expect(
      (
        await call(app, 'PUT', `/chat-interface/conversations/${conv}`, {
          token: user.token,
          body: { title: 'Renamed' },
        })
      ).status,
    ).toBe(200);
    const other = await org.member('user');
    for (const [method, url, body] of [
      ['GET', `/chat-interface/conversations/${conv}/history`],
      ['PUT', `/chat-interface/conversations/${conv}`, { title: 'x' }],
      ['DELETE', `/chat-interface/conversations/${conv}`],
    ] as const) {
      expect((await call(app, method, url, { token: other.token, body })).status, url).toBe(404);
    }
    const stolen = await send(conv, 'hello', { actor: other });
    expect(stolen.status).toBe(404);
    expect(
      (await call(app, 'DELETE', `/chat-interface/conversations/${conv}`, { token: user.token })).status,
    ).toBe(200);
    expect(await app.db.select().from(conversations).where(eq(conversations.id, conv))).toEqual([]);
  });

  it('messages arriving together are read by one statement, each checked for its own caller', async () => {
    const id = await bot({ model: await model('gpt-4o-mini') });
    const mine = [await conversation(id), await conversation(id)];
    const other = await org.member('user');
    const principal = (actor: Actor) => ({
      userId: actor.id,
      organizationId: org.id,
      role: 'user' as const,
      email: actor.email,
    });
    const body = { messages: [{ role: 'user' as const, content: 'hi' }] };
    const client = (app.db as unknown as { session: { client: { query: (...args: unknown[]) => unknown } } })
      .session.client;
    const queries = vi.spyOn(client, 'query');
    const chat = app.services.simpleChat;
    const results = await Promise.allSettled([
      chat.prepare(principal(user), mine[0]!, body),
      chat.prepare(principal(other), mine[1]!, body), // not theirs
      chat.prepare(principal(user), mine[1]!, body),
      chat.prepare(principal(user), '00000000-0000-4000-8000-000000000000', body), // no such conversation
    ]);
    const loads = queries.mock.calls.filter((args) => JSON.stringify(args[0]).includes('fallback_models'));
    queries.mockRestore();
    expect(loads).toHaveLength(1);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect(
      (results[0] as PromiseFulfilledResult<{ conversation: { id: string } }>).value.conversation.id,
    ).toBe(mine[0]);
    expect(
      (results[2] as PromiseFulfilledResult<{ conversation: { id: string } }>).value.conversation.id,
    ).toBe(mine[1]);
    for (const i of [1, 3])
      expect((results[i] as PromiseRejectedResult).reason).toMatchObject({ status: 404 });
  });

  it('images go to multimodal models only, and must be images', async () => {
    const vision = await conversation(await bot({ model: await model('gpt-4o', 'llm-multimodal') }));
    const ok = await send(vision, [
      { type: 'text', text: 'what is it' },
      { type: 'image', url: 'data:image/png;base64,AAAA' },
    ]);
    expect(
      ok
        .json()
        .filter((e) => e.type === 'text')
        .map((e) => e.text)
        .join(''),
    ).toBe('Echo: what is it [1 image(s)]');
    const bad = await send(vision, [{ type: 'image', url: 'data:text/html;base64,AAAA' }]);
    expect([bad.status, JSON.parse(bad.events[0]!.data).code]).toEqual([422, 'invalid_image']);
    const textOnly = await conversation(await bot({ model: await model('gpt-4o-mini') }));
    const refused = await send(textOnly, [{ type: 'image', url: 'data:image/png;base64,AAAA' }]);
    expect([refused.status, JSON.parse(refused.events[0]!.data).code]).toEqual([422, 'images_not_supported']);
  });
});
