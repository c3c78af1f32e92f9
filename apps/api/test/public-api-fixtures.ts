// A running API (real HTTP, for the official OpenAI client and streams) with one published chatbot of
// each type on the fake provider, and helpers to make API keys for them.
import type { AddressInfo } from 'node:net';
import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { flowBot, storyFlow } from './flows';
import { call, createOrg, fakeModel, testConfig, type Org } from './helpers';

export interface PublicWorld {
  app: FastifyInstance;
  fake: FakeProvider;
  /** http://127.0.0.1:PORT */
  base: string;
  org: Org;
  workspace: string;
  bots: { simple: string; chatflow: string; workflow: string };
  /** A new API key of a chatbot (the key itself, and its id). */
  key(chatbotId: string, name?: string): Promise<{ key: string; id: string }>;
  close(): Promise<void>;
}

/** input (field `topic`) -> output: a workflow answering with its input field. */
export function topicFlow() {
  return {
    nodes: [
      {
        id: 'input_in01',
        type: 'input',
        data: { label: 'input', fields: [{ name: 'topic', type: 'string', isMandatory: true }] },
        position: { x: 0, y: 0 },
      },
      {
        id: 'output_ou01',
        type: 'output',
        data: { label: 'output', fields: { response: 'Topic: {{#input_in01.topic#}}' } },
        position: { x: 200, y: 0 },
      },
    ],
    edges: [{ id: 'input_in01-output_ou01', source: 'input_in01', target: 'output_ou01' }],
  };
}

export async function startPublicWorld(env: Record<string, string> = {}): Promise<PublicWorld> {
  const fake = await startFakeProvider({ apiKey: 'test-key' });
  const app = await buildApp({
    config: testConfig({ HEARTBEAT_MS: '200', ...env }),
    database: await sharedTestDatabase(),
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const org = await createOrg(app);
  const token = org.admin.token;
  const workspace = await org.workspace(org.admin, 'Public');
  const { providerId } = await fakeModel(app, org, workspace, fake.url);
  // Priced, so that each call is charged.
  const modelId = (
    await call(app, 'POST', '/models', {
      token,
      body: {
        workspace_id: workspace,
        provider_id: providerId,
        model_name: 'gpt-4o-mini',
        model_type: 'llm',
        pricing: { input_per_1k: 1, output_per_1k: 1 },
      },
    })
  ).body.model_id as string;
  const simple = (
    await call(app, 'POST', '/chatbots', {
      token,
      body: { workspace_id: workspace, name: 'Support bot', type: 'simple' },
    })
  ).body.id as string;
  await call(app, 'PUT', `/chatbots/${simple}/simple/config`, {
    token,
    body: { instruction: 'Be brief.', model_id: modelId },
  });
  await call(app, 'POST', `/chatbots/${simple}/publish`, { token });
  const chatflow = await flowBot(
    app,
    org,
    workspace,
    'chatflow',
    storyFlow(modelId, { mandatoryTopic: false }),
  );
  const workflow = await flowBot(app, org, workspace, 'workflow', topicFlow());
  return {
    app,
    fake,
    base,
    org,
    workspace,
    bots: { simple, chatflow, workflow },
    async key(chatbotId, name = 'Website') {
      const res = await call(app, 'POST', `/chatbots/${chatbotId}/api_keys`, { token, body: { name } });
      if (res.status !== 201)
        throw new Error(`key creation failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { key: res.body.key as string, id: res.body.id as string };
    },
    async close() {
      await app.close();
      await fake.close();
    },
  };
}
