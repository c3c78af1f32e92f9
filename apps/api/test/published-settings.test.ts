import type { AddressInfo } from 'node:net';
import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { finished, flowBot, readEvents } from './flows';
import { call, createOrg, fakeModel, testConfig, type Org } from './helpers';

// A published chatbot answers its end users with the settings it was published with; saving changes
// ("Unpublished changes") alters nothing they meet until it is published again, while the editor's
// test runs use the draft.
let fake: FakeProvider;
let app: FastifyInstance;
let base: string;
let org: Org;
let ws: string;
let modelId: string;

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: 'test-key' });
  app = await buildApp({ config: testConfig(), database: await sharedTestDatabase(), logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  org = await createOrg(app);
  ws = await org.workspace(org.admin, 'Published');
  ({ modelId } = await fakeModel(app, org, ws, fake.url));
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const admin = () => ({ token: org.admin.token });

async function conversation(chatbotId: string) {
  const res = await call(app, 'POST', '/chat-interface/conversations', {
    ...admin(),
    body: { title: '', chatbot_id: chatbotId },
  });
  expect(res.status).toBe(201);
  return res.body.conversation_id as string;
}

const post = (path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${org.admin.token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(body),
  });

/** The system prompt of the last chat request the fake provider received. */
function lastSystemPrompt(): string {
  const chats = fake.requests.filter((r) => r.path.endsWith('/chat/completions'));
  const body = chats.at(-1)!.body as { messages: { role: string; content: string }[] };
  return body.messages.find((m) => m.role === 'system')?.content ?? '';
}

async function askSimple(chatbotId: string) {
  const res = await post(`/chat-interface/conversations/${await conversation(chatbotId)}/simple/message`, {
    messages: [{ role: 'user', content: 'hello' }],
  });
  expect(res.status).toBe(200);
  await res.text();
  return lastSystemPrompt();
}

describe('published settings', () => {
  it('a simple chatbot keeps answering with its published instruction until it is published again', async () => {
    const id = (
      await call(app, 'POST', '/chatbots', {
        ...admin(),
        body: { workspace_id: ws, name: 'Frozen', type: 'simple' },
      })
    ).body.id as string;
    const save = (instruction: string) =>
      call(app, 'PUT', `/chatbots/${id}/simple/config`, {
        ...admin(),
        body: { instruction, model_id: modelId },
      });

    await save('Answer in English.');
    await call(app, 'POST', `/chatbots/${id}/publish`, admin());
    expect(await askSimple(id)).toContain('Answer in English.');

    await save('Answer in French.');
    const state = (await call(app, 'GET', `/chatbots/${id}`, admin())).body.chatbot;
    // The editor shows the draft, marked as not yet live.
    expect(state).toMatchObject({ instruction: 'Answer in French.', has_unpublished_changes: true });
    expect(await askSimple(id)).toContain('Answer in English.');

    await call(app, 'POST', `/chatbots/${id}/publish`, admin());
    expect(await askSimple(id)).toContain('Answer in French.');
  });

  it("a chatflow's chats run the published graph; the editor's test run runs the draft", async () => {
    const graph = (reply: string) => ({
      nodes: [
        { id: 'input_in01', type: 'input', data: { label: 'In', fields: [] }, position: { x: 0, y: 0 } },
        {
          id: 'output_ou01',
          type: 'output',
          data: { label: 'Out', fields: { response: `${reply} {{#input_in01.query#}}` } },
          position: { x: 200, y: 0 },
        },
      ],
      edges: [{ id: 'input_in01-output_ou01', source: 'input_in01', target: 'output_ou01' }],
    });
    const id = await flowBot(app, org, ws, 'chatflow', graph('Published:'));
    const saved = await call(app, 'PUT', `/chatbots/${id}/chatflow/config`, {
      ...admin(),
      body: { configuration: graph('Draft:') },
    });
    expect(saved.status).toBe(200);

    const conv = await conversation(id);
    const { events } = await readEvents(
      await post(`/chat-interface/conversations/${conv}/chatflow/message`, { input_data: { query: 'hi' } }),
    );
    expect(events.at(-1)!.event).toMatchObject({
      type: 'execution_completed',
      final_output: 'Published: hi',
    });
    const fields = await call(app, 'GET', `/chat-interface/chatbots/${id}/input-fields`, admin());
    expect(fields.body).toEqual({ has_additional_inputs: false, input_fields: [] });

    const test = await call(app, 'POST', `/chatbots/${id}/runs`, {
      ...admin(),
      headers: { accept: 'application/json' },
      body: { inputs: { query: 'hi' } },
    });
    expect(test.status).toBeLessThan(300);
    const run = await finished(app, org.admin.token, test.body.run_id as string);
    expect(run).toMatchObject({ status: 'succeeded', final_output: 'Draft: hi' });

    await call(app, 'POST', `/chatbots/${id}/publish`, admin());
    const again = await readEvents(
      await post(`/chat-interface/conversations/${conv}/chatflow/message`, { input_data: { query: 'hi' } }),
    );
    expect(again.events.at(-1)!.event).toMatchObject({ final_output: 'Draft: hi' });
  });

  it('a copy of a published chatbot is a draft of its own', async () => {
    const id = await flowBot(app, org, ws, 'workflow', {
      nodes: [
        { id: 'input_in01', type: 'input', data: { label: 'In', fields: [] }, position: { x: 0, y: 0 } },
        {
          id: 'output_ou01',
          type: 'output',
          data: { label: 'Out', fields: { response: 'ok' } },
          position: { x: 200, y: 0 },
        },
      ],
      edges: [{ id: 'input_in01-output_ou01', source: 'input_in01', target: 'output_ou01' }],
    });
    const copy = await call(app, 'POST', '/chatbots/duplicate', { ...admin(), body: { chatbot_id: id } });
    expect(copy.status).toBe(201);
    const copyId = copy.body.id as string;
    const got = (await call(app, 'GET', `/chatbots/${copyId}`, admin())).body.chatbot;
    expect(got).toMatchObject({ is_published: false, has_unpublished_changes: false });
  });
});
