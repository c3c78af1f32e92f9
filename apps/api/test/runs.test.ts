import type { AddressInfo } from 'node:net';
import { messages, nodeExecutions, runs } from '@atelier/db';
import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { echoFlow, finished, flowBot, readEvents, storyFlow, types } from './flows';
import { call, createOrg, fakeModel, testConfig, type Org } from './helpers';

// Runs through the API in whichever mode the environment gives: in process (no REDIS_URL) or on
// BullMQ with the API's own worker (REDIS_URL, as on CI). runs-worker.test.ts covers separate workers.
let fake: FakeProvider;
let app: FastifyInstance;
let base: string;
let org: Org;
let ws: string;
let modelId: string;
let workflow: string;

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: 'test-key', tokenDelayMs: 5 });
  app = await buildApp({
    config: testConfig({ HEARTBEAT_MS: '200', NODE_URL_POLICY: 'any' }),
    database: await sharedTestDatabase(),
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  org = await createOrg(app);
  ws = await org.workspace(org.admin, 'Flows');
  ({ modelId } = await fakeModel(app, org, ws, fake.url));
  workflow = await flowBot(app, org, ws, 'workflow', storyFlow(modelId));
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const start = (chatbotId: string, body: unknown, token = org.admin.token) =>
  call(app, 'POST', `/chatbots/${chatbotId}/runs`, { token, body });
const events = (runId: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(`${base}/runs/${runId}/events`, {
    headers: { authorization: `Bearer ${org.admin.token}`, accept: 'text/event-stream', ...headers },
    ...(signal ? { signal } : {}),
  });

/** A test run of the workflow stored as given, without running it (a run some runner left as it is). */
async function storedRun(values: Pick<typeof runs.$inferInsert, 'status' | 'outputs' | 'finalOutput'>) {
  const [row] = await app.db
    .insert(runs)
    .values({
      organizationId: org.id,
      workspaceId: ws,
      chatbotId: workflow,
      chatbotType: 'workflow',
      trigger: 'test',
      configurationHash: await app.runtime.flowConfigs.store(org.id, echoFlow()),
      startedBy: org.admin.id,
      ...values,
    })
    .returning();
  return row!;
}

describe('flow configuration and templates', () => {
  it('saves a draft as it is, but refuses to publish a flow with problems, per node', async () => {
    const broken = storyFlow('');
    const id = await flowBot(app, org, ws, 'workflow', broken, false);
    const res = await call(app, 'POST', `/chatbots/${id}/publish`, { token: org.admin.token });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_flow');
    expect(res.body.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ node_id: 'llm_ab12', field: 'modelId' })]),
    );
    const config = await call(app, 'GET', `/chatbots/${id}/config`, { token: org.admin.token });
    expect(config.body.config.configuration.nodes).toHaveLength(3);
    expect(config.body.config.is_published).toBe(false);
  });

  it('refuses a malformed configuration and a simple chatbot on the flow path', async () => {
    const id = await flowBot(app, org, ws, 'chatflow', echoFlow(), false);
    const bad = await call(app, 'PUT', `/chatbots/${id}/chatflow/config`, {
      token: org.admin.token,
      body: { configuration: { nodes: [{ id: 1 }], edges: [] } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('invalid_configuration');
    const simple = (
      await call(app, 'POST', '/chatbots', {
        token: org.admin.token,
        body: { workspace_id: ws, name: 'S', type: 'simple' },
      })
    ).body.id;
    const wrong = await call(app, 'PUT', `/chatbots/${simple}/chatflow/config`, {
      token: org.admin.token,
      body: { configuration: echoFlow() },
    });
    expect(wrong.body.code).toBe('wrong_chatbot_type');
  });

  it('serves the ten templates: 8 chatflows and 2 workflows', async () => {
    const res = await call(app, 'GET', '/templates', { token: org.admin.token });
    expect(res.status).toBe(200);
    const templates = res.body.templates as {
      id: string;
      type: string;
      configuration: { nodes: unknown[] };
    }[];
    expect(templates).toHaveLength(10);
    expect(templates.filter((t) => t.type === 'chatflow')).toHaveLength(8);
    expect(templates.map((t) => t.id)).toContain('qa-chatbot');
    expect(templates.every((t) => t.configuration.nodes.length > 0)).toBe(true);
  });
});

describe('runs', () => {
  it('a test run streams its events in order, each with an id, and ends with the final output', async () => {
    const res = await start(workflow, { inputs: { topic: 'cats' } });
    expect(res.status).toBe(201);
    const runId = res.body.run_id as string;
    const { events: seen, done } = await readEvents(await events(runId));
    expect(done).toBe(true);
    const kinds = types(seen).filter((t) => t !== 'text');
    expect(kinds).toEqual([
      'run_started',
      'node_started',
      'node_completed',
      'node_started',
      'node_completed',
      'node_started',
      'node_completed',
      'execution_completed',
    ]);
    expect(types(seen).filter((t) => t === 'text').length).toBeGreaterThan(1);
    const ids = seen.map((s) => s.id);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const last = seen.at(-1)!.event;
    expect(last).toMatchObject({ type: 'execution_completed', final_output: 'Echo: Write about cats' });

    const detail = await call(app, 'GET', `/runs/${runId}`, { token: org.admin.token });
    expect(detail.body).toMatchObject({
      status: 'succeeded',
      final_output: 'Echo: Write about cats',
      trigger: 'test',
    });
    expect(detail.body.node_executions.map((e: { node_id: string }) => e.node_id)).toEqual([
      'input_in01',
      'llm_ab12',
      'output_ou01',
    ]);
    const llm = detail.body.node_executions[1];
    expect(llm.parameters).toMatchObject({ prompt: 'Write about cats' });
    expect(llm.status).toBe('succeeded');
  });

  it('re-attaching with Last-Event-ID gives the rest without gaps or duplicates', async () => {
    const runId = (await start(workflow, { inputs: { topic: 'the sea and the wind and the stars' } })).body
      .run_id;
    const first = await readEvents(await events(runId), (seen) => seen.length === 4);
    expect(first.done).toBe(false);
    const rest = await readEvents(await events(runId, { 'last-event-id': first.events.at(-1)!.id! }));
    expect(rest.done).toBe(true);
    const whole = await readEvents(await events(runId));
    expect([...first.events, ...rest.events].map((s) => s.id)).toEqual(whole.events.map((s) => s.id));
    expect(whole.events.at(-1)!.event.type).toBe('execution_completed');
  });

  it('a finished run whose log has expired still answers its end, and the stream closes', async () => {
    const old = await storedRun({
      status: 'succeeded',
      outputs: { response: 'long ago' },
      finalOutput: 'long ago',
    });
    const { events: seen, done } = await readEvents(await events(old.id));
    expect(done).toBe(true);
    expect(seen.map((s) => s.event)).toEqual([
      {
        type: 'execution_completed',
        run_id: old.id,
        outputs: { response: 'long ago' },
        final_output: 'long ago',
      },
    ]);
  });

  it('a run whose runner stored its end but died before logging it still ends its readers’ streams', async () => {
    const stranded = await storedRun({ status: 'running' });
    const runId = stranded.id;
    await app.runtime.events.append(runId, {
      type: 'node_started',
      node_id: 'input_in01',
      node_type: 'input',
      label: 'Input',
      iteration_index: null,
    });
    const stream = events(runId);
    const first = await readEvents(await events(runId), (seen) => seen.length === 1);
    expect(first.events[0]!.event.type).toBe('node_started');
    // The end is stored, and the process that would have logged it is gone.
    await app.db
      .update(runs)
      .set({ status: 'succeeded', outputs: { response: 'done' }, finalOutput: 'done' })
      .where(eq(runs.id, runId));
    const { events: seen, done } = await readEvents(await stream);
    expect(done).toBe(true);
    expect(seen.map((s) => s.event.type)).toEqual(['node_started', 'execution_completed']);
    expect(seen.at(-1)!.event).toEqual({
      type: 'execution_completed',
      run_id: runId,
      outputs: { response: 'done' },
      final_output: 'done',
    });
  }, 20_000);

  it('a client that leaves does not stop the run', async () => {
    const runId = (await start(workflow, { inputs: { topic: 'dogs' } })).body.run_id;
    const controller = new AbortController();
    await readEvents(await events(runId, {}, controller.signal), (seen) => seen.length === 1);
    controller.abort();
    const run = await finished(app, org.admin.token, runId);
    expect(run.status).toBe('succeeded');
    expect(run.final_output).toBe('Echo: Write about dogs');
  });

  it('a missing mandatory input fails the run with the reason; a draft runs without saving', async () => {
    const runId = (await start(workflow, { inputs: {} })).body.run_id;
    const { events: seen } = await readEvents(await events(runId));
    const last = seen.at(-1)!.event;
    expect(last.type).toBe('execution_error');
    expect(JSON.stringify(last)).toContain('topic');
    expect((await finished(app, org.admin.token, runId)).status).toBe('failed');

    const draft = await start(workflow, { inputs: { query: 'draft!' }, configuration: echoFlow() });
    const run = await finished(app, org.admin.token, draft.body.run_id);
    expect(run).toMatchObject({
      status: 'succeeded',
      final_output: 'You said: draft!',
      config_version: null,
    });
  });

  it('cancel stops a running run, which ends as cancelled', async () => {
    fake.setTokenDelay(300);
    try {
      const runId = (await start(workflow, { inputs: { topic: 'a very long story about many things' } })).body
        .run_id;
      const stream = events(runId);
      await readEvents(await events(runId), (seen) => seen.some((s) => s.event.type === 'text'));
      const cancel = await call(app, 'POST', `/runs/${runId}/cancel`, { token: org.admin.token });
      expect(cancel.status).toBe(200);
      const { events: seen, done } = await readEvents(await stream);
      expect(done).toBe(true);
      expect(seen.at(-1)!.event).toMatchObject({ type: 'execution_error', status: 'cancelled' });
      expect((await finished(app, org.admin.token, runId)).status).toBe('cancelled');
    } finally {
      fake.setTokenDelay(5);
    }
  });

  it('lists a chatbot’s runs; other organizations and plain users cannot see or start them', async () => {
    const list = await call(app, 'GET', `/chatbots/${workflow}/runs?limit=2`, { token: org.admin.token });
    expect(list.status).toBe(200);
    expect(list.body.runs).toHaveLength(2);
    const runId = list.body.runs[0].id as string;

    const other = await createOrg(app);
    expect((await call(app, 'GET', `/runs/${runId}`, { token: other.admin.token })).status).toBe(404);
    expect((await call(app, 'POST', `/runs/${runId}/cancel`, { token: other.admin.token })).status).toBe(404);
    expect((await start(workflow, { inputs: {} }, other.admin.token)).status).toBe(404);
    const user = await org.member('user');
    expect((await start(workflow, { inputs: {} }, user.token)).status).toBe(403);
    expect((await call(app, 'GET', `/runs/${runId}`, { token: user.token })).status).toBe(404);
  });
});

describe('chatting with a chatflow', () => {
  it('streams the structured events and keeps the exchange in the conversation', async () => {
    const chatflow = await flowBot(app, org, ws, 'chatflow', storyFlow(modelId, { mandatoryTopic: false }));
    const conversation = (
      await call(app, 'POST', '/chat-interface/conversations', {
        token: org.admin.token,
        body: { title: '', chatbot_id: chatflow },
      })
    ).body.conversation_id as string;
    const post = (path: string) =>
      fetch(`${base}/chat-interface/conversations/${conversation}/${path}/message`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input_data: { query: 'owls' } }),
      });
    const wrong = await post('workflow');
    expect(wrong.status).toBe(422);
    const { events: seen, done } = await readEvents(await post('chatflow'));
    expect(done).toBe(true);
    expect(seen[0]!.event.type).toBe('run_started');
    expect(seen.at(-1)!.event).toMatchObject({
      type: 'execution_completed',
      final_output: 'Echo: Write about owls',
    });

    const stored = await app.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conversation))
      .orderBy(asc(messages.createdAt));
    expect(stored.map((m) => [m.role, m.content])).toEqual([
      ['user', [{ type: 'text', text: 'owls' }]],
      ['assistant', [{ type: 'text', text: 'Echo: Write about owls' }]],
    ]);

    // The next message carries the conversation so far as the input node's history.
    const second = await readEvents(await post('chatflow'));
    const started = second.events[0]!.event as { type: 'run_started'; run_id: string };
    const detail = await call(app, 'GET', `/runs/${started.run_id}`, { token: org.admin.token });
    expect(detail.body.trigger).toBe('chat');
    expect(detail.body.node_executions[0].outputs.history).toEqual([
      { role: 'user', content: 'owls' },
      { role: 'assistant', content: 'Echo: Write about owls' },
    ]);

    // Nodes that started within one millisecond (the input node takes less) keep the order they ran in,
    // whatever order the rows are stored in (updated last first, they are stored in reverse).
    for (const nodeId of ['output_ou01', 'llm_ab12', 'input_in01']) {
      await app.db
        .update(nodeExecutions)
        .set({ startedAt: new Date('2026-01-01T00:00:00Z') })
        .where(and(eq(nodeExecutions.runId, started.run_id), eq(nodeExecutions.nodeId, nodeId)));
    }
    const tied = await call(app, 'GET', `/runs/${started.run_id}`, { token: org.admin.token });
    expect(tied.body.node_executions.map((e: { node_id: string }) => e.node_id)).toEqual([
      'input_in01',
      'llm_ab12',
      'output_ou01',
    ]);
  });
});
