import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents, types } from './flows';
import { call } from './helpers';
import { startPublicWorld, type PublicWorld } from './public-api-fixtures';

/** The public API's native calls: Atelier's own events, per end user. */
let w: PublicWorld;
let simpleKey: string;
let workflowKey: string;
let chatflowKey: string;

beforeAll(async () => {
  w = await startPublicWorld();
  simpleKey = (await w.key(w.bots.simple)).key;
  workflowKey = (await w.key(w.bots.workflow)).key;
  chatflowKey = (await w.key(w.bots.chatflow)).key;
});
afterAll(() => w.close());

const post = (key: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${w.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const get = (key: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${w.base}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });

describe('native public API', () => {
  it('a simple chatbot answers blocking, continues the conversation, and streams its own events', async () => {
    const first = await call(w.app, 'POST', '/v1/chat-messages', {
      token: simpleKey,
      body: { user: 'alice', message: 'my name is Alice', stream: false },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ answer: 'Echo: my name is Alice', status: 'succeeded', run_id: null });
    const conversation = first.body.conversation_id as string;

    const res = await post(simpleKey, '/v1/chat-messages', {
      user: 'alice',
      message: 'what is my name?',
      conversation_id: conversation,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const { events, done } = await readEvents(res);
    expect(done).toBe(true);
    const seen = events.map((e) => e.event) as { type: string; text?: string; conversation_id?: string }[];
    expect(seen[0]).toMatchObject({ type: 'start', conversation_id: conversation });
    expect(
      seen
        .filter((e) => e.type === 'text')
        .map((e) => e.text)
        .join(''),
    ).toBe('Echo: what is my name?');
    expect(seen.at(-1)).toEqual({ type: 'end', fallback: false });
    // The stored conversation was sent to the model with the new message.
    expect(JSON.stringify(w.fake.requests.at(-1)!.body)).toContain('Echo: my name is Alice');

    const history = await call(w.app, 'GET', `/v1/conversations/${conversation}/messages?user=alice`, {
      token: simpleKey,
    });
    expect(history.body.history.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it("one end user's conversations and runs are invisible to another, and to another key", async () => {
    const mine = await call(w.app, 'POST', '/v1/chat-messages', {
      token: simpleKey,
      body: { user: 'carol', message: 'secret plans', stream: false },
    });
    const conversation = mine.body.conversation_id as string;
    const list = (user: string, key = simpleKey) =>
      call(w.app, 'GET', `/v1/conversations?user=${user}`, { token: key });
    expect((await list('carol')).body.conversations.map((c: { id: string }) => c.id)).toEqual([conversation]);
    expect((await list('dave')).body.conversations).toEqual([]);
    const otherKey = (await w.key(w.bots.simple, 'Second key')).key;
    expect((await list('carol', otherKey)).body.conversations).toEqual([]);

    const read = await call(w.app, 'GET', `/v1/conversations/${conversation}/messages?user=dave`, {
      token: simpleKey,
    });
    expect(read.status).toBe(404);
    const continued = await call(w.app, 'POST', '/v1/chat-messages', {
      token: simpleKey,
      body: { user: 'dave', message: 'hi', conversation_id: conversation, stream: false },
    });
    expect(continued.status).toBe(404);
    // Nor does the conversation appear among the organization members' own.
    const own = await call(w.app, 'GET', '/chat-interface/conversations', { token: w.org.admin.token });
    expect(own.body.conversations.map((c: { id: string }) => c.id)).not.toContain(conversation);

    const started = await call(w.app, 'POST', '/v1/workflows/runs', {
      token: workflowKey,
      body: { user: 'carol', inputs: { topic: 'owls' } },
    });
    const runId = started.body.run_id as string;
    expect((await call(w.app, 'GET', `/v1/runs/${runId}?user=dave`, { token: workflowKey })).status).toBe(
      404,
    );
    const cancel = await call(w.app, 'POST', `/v1/runs/${runId}/cancel`, {
      token: workflowKey,
      body: { user: 'dave' },
    });
    expect(cancel.status).toBe(404);
  });

  it('starts a workflow run, follows its events and resumes them with Last-Event-ID', async () => {
    const started = await call(w.app, 'POST', '/v1/workflows/runs', {
      token: workflowKey,
      body: { user: 'erin', inputs: { topic: 'tides' } },
    });
    expect(started.status).toBe(201);
    const { run_id: runId, conversation_id: conversationId } = started.body;
    const events = `/v1/runs/${runId}/events?user=erin`;
    const all = await readEvents(await get(workflowKey, events));
    expect(all.done).toBe(true);
    expect(types(all.events)[0]).toBe('run_started');
    expect(all.events.at(-1)!.event).toMatchObject({
      type: 'execution_completed',
      final_output: 'Topic: tides',
    });

    // Re-attaching after the second event gives exactly the rest, by header or by query.
    const after = all.events[1]!.id!;
    const rest = await readEvents(await get(workflowKey, events, { 'last-event-id': after }));
    expect(rest.events.map((e) => e.id)).toEqual(all.events.slice(2).map((e) => e.id));
    const byQuery = await readEvents(await get(workflowKey, `${events}&last_event_id=${after}`));
    expect(byQuery.events.map((e) => e.id)).toEqual(all.events.slice(2).map((e) => e.id));

    const run = await call(w.app, 'GET', `/v1/runs/${runId}?user=erin`, { token: workflowKey });
    expect(run.body).toMatchObject({
      id: runId,
      status: 'succeeded',
      trigger: 'api',
      final_output: 'Topic: tides',
      conversation_id: conversationId,
    });
    expect(run.body).not.toHaveProperty('started_by');
    const cancel = await call(w.app, 'POST', `/v1/runs/${runId}/cancel`, {
      token: workflowKey,
      body: { user: 'erin' },
    });
    expect(cancel.body).toEqual({ run_id: runId, status: 'succeeded' });
  });

  it('cancels a running chatflow run started by a streamed message', async () => {
    w.fake.setTokenDelay(300);
    try {
      const res = await post(chatflowKey, '/v1/chat-messages', {
        user: 'frank',
        message: 'a very long story about many things',
      });
      const started = await readEvents(res, (seen) => seen.some((s) => s.event.type === 'text'));
      const first = started.events[0]!.event as { type: string; run_id: string };
      expect(first.type).toBe('run_started');
      const cancel = await call(w.app, 'POST', `/v1/runs/${first.run_id}/cancel`, {
        token: chatflowKey,
        body: { user: 'frank' },
      });
      expect(cancel.status).toBe(200);
      const rest = await readEvents(
        await get(chatflowKey, `/v1/runs/${first.run_id}/events?user=frank`, {
          'last-event-id': started.events.at(-1)!.id!,
        }),
      );
      expect(rest.events.at(-1)!.event).toMatchObject({ type: 'execution_error', status: 'cancelled' });
    } finally {
      w.fake.setTokenDelay(5);
    }
  });

  it('runs start only on workflows; a workflow answers a blocking message; a refusal leaves nothing', async () => {
    const refused = await call(w.app, 'POST', '/v1/workflows/runs', {
      token: simpleKey,
      body: { user: 'gina', inputs: {} },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('wrong_chatbot_type');
    const blocking = await call(w.app, 'POST', '/v1/chat-messages', {
      token: workflowKey,
      body: { user: 'gina', message: 'hi', inputs: { topic: 'moss' }, stream: false },
    });
    expect(blocking.body).toMatchObject({ answer: 'Topic: moss', status: 'succeeded' });
    expect(blocking.body.run_id).toEqual(expect.any(String));
    // A refused message leaves no empty conversation behind.
    const before = await call(w.app, 'GET', '/v1/conversations?user=hank', { token: simpleKey });
    const empty = await call(w.app, 'POST', '/v1/chat-messages', {
      token: simpleKey,
      body: { user: 'hank', message: '   ', stream: false },
    });
    expect(empty.status).toBe(422);
    const after = await call(w.app, 'GET', '/v1/conversations?user=hank', { token: simpleKey });
    expect(after.body.conversations).toEqual(before.body.conversations);
  });
});
