import { messages } from '@atelier/db';
import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { call, createOrg, testConfig, type Actor, type Org } from './helpers';

let fake: FakeProvider;
let app: FastifyInstance;
let org: Org;
let user: Actor;
let ws: string;
let botId: string;

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: 'test-key' });
  app = await buildApp({ config: testConfig(), database: await sharedTestDatabase(), logger: false });
  await app.ready();
  org = await createOrg(app);
  user = await org.member('user');
  ws = await org.workspace(org.admin, 'Feedback');
  const providerId = (
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
  const modelId = (
    await call(app, 'POST', '/models', {
      token: org.admin.token,
      body: {
        workspace_id: ws,
        provider_id: providerId,
        model_name: 'gpt-4o-mini',
        model_type: 'llm',
        pricing: { input_per_1k: 1, output_per_1k: 1 },
      },
    })
  ).body.model_id;
  botId = (
    await call(app, 'POST', '/chatbots', {
      token: org.admin.token,
      body: { workspace_id: ws, name: 'Rated', type: 'simple' },
    })
  ).body.id;
  await call(app, 'PUT', `/chatbots/${botId}/simple/config`, {
    token: org.admin.token,
    body: { instruction: 'Be brief.', model_id: modelId },
  });
  await call(app, 'POST', `/chatbots/${botId}/publish`, { token: org.admin.token });
  await call(app, 'POST', `/chatbots/${botId}/users/${user.id}/grant`, { token: org.admin.token });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

async function conversation(actor = user) {
  const res = await call(app, 'POST', '/chat-interface/conversations', {
    token: actor.token,
    body: { title: '', chatbot_id: botId },
  });
  return res.body.conversation_id as string;
}

/** One simple message, read whole (inject waits for the end of the stream). */
async function ask(conversationId: string, body: object) {
  const res = await app.inject({
    method: 'POST',
    url: `/chat-interface/conversations/${conversationId}/simple/message`,
    headers: { authorization: `Bearer ${user.token}`, accept: 'text/event-stream' },
    payload: body,
  });
  return res.body
    .split('\n\n')
    .map((e) => e.replace(/^data: /, ''))
    .filter((e) => e.startsWith('{'))
    .map((e) => JSON.parse(e) as { type: string; [k: string]: unknown });
}

const stored = (conversationId: string) =>
  app.db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.createdAt), asc(messages.id));

describe('answers: feedback and regenerate', () => {
  it('the start event names the stored answer, which its owner can rate; the logs show the rating', async () => {
    const conv = await conversation();
    const events = await ask(conv, { messages: [{ role: 'user', content: 'rate me' }] });
    const start = events.find((e) => e.type === 'start');
    const rows = await stored(conv);
    const answer = rows.find((m) => m.role === 'assistant')!;
    expect(start?.message_id).toBe(answer.id);

    const url = `/chat-interface/conversations/${conv}/messages/${answer.id}/feedback`;
    const up = await call(app, 'PUT', url, { token: user.token, body: { rating: 'up' } });
    expect(up.status).toBe(200);
    const history = await call(app, 'GET', `/chat-interface/conversations/${conv}/history`, {
      token: user.token,
    });
    expect(history.body.history.map((m: { feedback: unknown }) => m.feedback)).toEqual([null, 'up']);

    const logs = await call(app, 'GET', `/analytics/logs?chatbot_id=${botId}&period=week`, {
      token: org.admin.token,
    });
    expect(logs.status).toBe(200);
    const mine = logs.body.logs.filter((l: { user_message_preview: string }) =>
      l.user_message_preview.includes('rate me'),
    );
    expect(mine.map((l: { feedback: unknown }) => l.feedback)).toEqual(['up']);

    // The answer was charged: the credits' details average it over the organization's first day.
    const usage = await call(app, 'GET', '/credits/usage', { token: user.token });
    expect(usage.status).toBe(200);
    expect(usage.body.used).toBeGreaterThan(0);
    expect(usage.body).toMatchObject({ window_days: 1, daily_average: usage.body.used });

    const down = await call(app, 'PUT', url, { token: user.token, body: { rating: 'down' } });
    expect(down.status).toBe(200);
    expect((await stored(conv)).find((m) => m.id === answer.id)?.feedback).toBe('down');
    await call(app, 'PUT', url, { token: user.token, body: { rating: null } });
    expect((await stored(conv)).find((m) => m.id === answer.id)?.feedback).toBeNull();
  });

  it('refuses: a question, another person, an unknown message, a rating that is not one', async () => {
    const conv = await conversation();
    await ask(conv, { messages: [{ role: 'user', content: 'hello' }] });
    const [question, answer] = await stored(conv);
    const base = `/chat-interface/conversations/${conv}/messages`;
    const own = await call(app, 'PUT', `${base}/${question!.id}/feedback`, {
      token: user.token,
      body: { rating: 'up' },
    });
    expect([own.status, own.body.code]).toEqual([422, 'not_an_answer']);
    const other = await call(app, 'PUT', `${base}/${answer!.id}/feedback`, {
      token: org.admin.token,
      body: { rating: 'up' },
    });
    expect(other.status).toBe(404);
    const elsewhere = await conversation();
    const moved = await call(
      app,
      'PUT',
      `/chat-interface/conversations/${elsewhere}/messages/${answer!.id}/feedback`,
      { token: user.token, body: { rating: 'up' } },
    );
    expect(moved.status).toBe(404);
    const bad = await call(app, 'PUT', `${base}/${answer!.id}/feedback`, {
      token: user.token,
      body: { rating: 'meh' },
    });
    expect(bad.status).toBe(422);
    expect((await stored(conv)).map((m) => m.feedback)).toEqual([null, null]);
  });

  it('regenerate replaces the last answer and never stores its question twice', async () => {
    const conv = await conversation();
    await ask(conv, { messages: [{ role: 'user', content: 'first' }] });
    const turn = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'Echo: first' },
      { role: 'user', content: 'second' },
    ];
    await ask(conv, { messages: turn });
    const before = await stored(conv);
    expect(before.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);

    await ask(conv, { messages: turn, regenerate: true });
    await ask(conv, { messages: turn, regenerate: true });
    const after = await stored(conv);
    expect(after.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(after.slice(0, 3).map((m) => m.id)).toEqual(before.slice(0, 3).map((m) => m.id));
    expect(after[3]!.id).not.toBe(before[3]!.id);

    // A question that was never stored (say, refused before its stream) is stored once.
    await ask(conv, {
      messages: [...turn, { role: 'assistant', content: 'x' }, { role: 'user', content: 'third' }],
      regenerate: true,
    });
    const third = await stored(conv);
    expect(third.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      [{ type: 'text', text: 'first' }],
      [{ type: 'text', text: 'second' }],
      [{ type: 'text', text: 'third' }],
    ]);
    expect(third.at(-1)!.role).toBe('assistant');
  });
});
