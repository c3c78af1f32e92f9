import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { finished, flowBot, storyFlow } from './flows';
import { call, createOrg, fakeModel, testConfig, type Org } from './helpers';

// Model rows with their provider are cached between runs (runtime caches); a change to the model, its
// provider or its workspace reaches the very next run.
let fake: FakeProvider;
let app: FastifyInstance;
let org: Org;

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: 'test-key' });
  app = await buildApp({ config: testConfig(), database: await sharedTestDatabase(), logger: false });
  org = await createOrg(app);
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const admin = () => ({ token: org.admin.token });

/** Runs the story flow once; answers the run and the model name the provider was asked for. */
async function runOnce(chatbotId: string) {
  const before = fake.requests.length;
  const started = await call(app, 'POST', `/chatbots/${chatbotId}/runs`, {
    ...admin(),
    headers: { accept: 'application/json' },
    body: { inputs: { topic: 'cats', query: '' } },
  });
  expect(started.status).toBeLessThan(300);
  const run = await finished(app, org.admin.token, started.body.run_id as string);
  const asked = fake.requests
    .slice(before)
    .filter((r) => r.path.endsWith('/chat/completions'))
    .map((r) => (r.body as { model: string }).model);
  return { run, asked };
}

describe('cached model rows', () => {
  it('a renamed model, a changed provider and a deleted model reach the next run', async () => {
    const ws = await org.workspace(org.admin, 'Model cache');
    const { modelId, providerId } = await fakeModel(app, org, ws, fake.url);
    const bot = await flowBot(app, org, ws, 'chatflow', storyFlow(modelId));

    expect((await runOnce(bot)).asked).toEqual(['gpt-4o-mini']);
    expect((await runOnce(bot)).asked).toEqual(['gpt-4o-mini']);

    const renamed = await call(app, 'PUT', `/models/${modelId}`, {
      ...admin(),
      body: { model_name: 'gpt-4o' },
    });
    expect(renamed.status).toBeLessThan(300);
    expect((await runOnce(bot)).asked).toEqual(['gpt-4o']);

    // A wrong key on the provider: the next run is refused by the provider (401), not run on the old key.
    const rekeyed = await call(app, 'PUT', `/providers/${providerId}`, {
      ...admin(),
      body: { api_key: 'wrong-key' },
    });
    expect(rekeyed.status).toBeLessThan(300);
    const refused = await runOnce(bot);
    expect(refused.run).toMatchObject({ status: 'failed' });

    expect((await call(app, 'DELETE', `/models/${modelId}`, admin())).status).toBeLessThan(300);
    const gone = await runOnce(bot);
    expect(gone.asked).toEqual([]);
    expect(gone.run).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(gone.run)).toMatch(/does not exist in this workspace/);
  });
});
