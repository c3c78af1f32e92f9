import { createServer, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineServices } from '@atelier/runtime';
import { buildApp } from '../../src/app';
import { call, createOrg, testConfig, type Org } from '../helpers';

// A provider whose base_url is a local server that redirects every request to a forbidden address.
// The forbidden target is a fake provider (reached through 0.0.0.0, which Linux connects to loopback):
// had the redirect been followed, its answer (embeddings, audio) would come back.
let fake: FakeProvider;
let redirector: Server;
let redirectorUrl = '';
let redirectTo = '';
let redirects = 0;

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: 'test-key' });
  redirector = createServer((req, res) => {
    redirects += 1;
    req.resume();
    res.writeHead(307, { location: `${redirectTo}${req.url ?? '/'}` }).end();
  });
  await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
  redirectorUrl = `http://127.0.0.1:${(redirector.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => redirector.close(() => r()));
  await fake.close();
});

const targets = () => [
  `http://0.0.0.0:${new URL(fake.url).port}`,
  `http://127.0.0.2:${new URL(fake.url).port}`,
  'http://169.254.169.254',
];

const policies: [string, Record<string, string>][] = [
  ['any', { PROVIDER_URL_POLICY: 'any' }],
  [
    'public-only (the redirecting server allowed)',
    { PROVIDER_URL_POLICY: 'public-only', PROVIDER_URL_ALLOW: '127.0.0.1' },
  ],
];

for (const [name, env] of policies) {
  describe(`provider calls under ${name}`, () => {
    let app: FastifyInstance;
    let org: Org;
    let providerId = '';
    const models: Record<string, string> = {};

    beforeAll(async () => {
      app = await buildApp({ config: testConfig(env), database: await sharedTestDatabase(), logger: false });
      org = await createOrg(app);
      const ws = await org.workspace(org.admin, 'SSRF');
      const created = await call(app, 'POST', '/providers', {
        token: org.admin.token,
        body: {
          workspace_id: ws,
          name: 'Hostile',
          kind: 'openai',
          base_url: `${redirectorUrl}/v1`,
          api_key: 'test-key',
        },
      });
      expect(created.status).toBe(201);
      providerId = created.body.provider_id;
      for (const [model_name, model_type] of [
        ['text-embedding-3-small', 'text-embeddings'],
        ['tts-1', 'text-to-speech'],
      ] as const) {
        const res = await call(app, 'POST', '/models', {
          token: org.admin.token,
          body: { workspace_id: ws, provider_id: providerId, model_name, model_type },
        });
        models[model_type] = res.body.model_id;
      }
    });
    afterAll(() => app.close());

    it('test, remote models and invoke (embeddings, speech) refuse the redirect and never return the target', async () => {
      // 127.0.0.2 is another loopback address: allowed under `any`, refused under public-only.
      const refusedTargets = targets().filter(
        (t) => env.PROVIDER_URL_POLICY !== 'any' || !t.includes('127.0.0.2'),
      );
      for (const target of refusedTargets) {
        redirectTo = target;
        const before = { hits: fake.requests.length, redirects };
        const token = org.admin.token;

        const test = await call(app, 'POST', `/providers/${providerId}/test`, { token });
        expect(test.status, target).toBe(200);
        expect(test.body).toMatchObject({ ok: false });
        expect(test.body.detail).toMatch(/redirected to a private or reserved address/);

        const remote = await call(app, 'GET', `/providers/${providerId}/remote-models`, { token });
        expect(remote.status, target).toBe(502);
        expect(remote.body).toEqual({ code: 'unsafe_redirect', detail: expect.stringMatching(/redirected/) });

        const embed = await call(app, 'POST', `/models/${models['text-embeddings']}/invoke`, {
          token,
          body: { input: ['a cat'] },
        });
        expect(embed.status, target).toBe(502);
        expect(embed.body).toMatchObject({ code: 'unsafe_redirect', detail: expect.any(String) });
        expect(embed.body.output).toBeUndefined();

        const speech = await call(app, 'POST', `/models/${models['text-to-speech']}/invoke`, {
          token,
          body: { input: 'hello', voice: 'alloy' },
        });
        expect(speech.status, target).toBe(502);
        expect(speech.body).toMatchObject({ code: 'unsafe_redirect' });
        expect(JSON.stringify(speech.body)).not.toMatch(/base64/);

        expect(redirects - before.redirects, target).toBeGreaterThan(0);
        expect(fake.requests.length - before.hits, target).toBe(0);
      }
    });
  });
}

describe('an API-request node under public-only', () => {
  let app: FastifyInstance;
  let base = '';
  let healthHits = 0;
  beforeAll(async () => {
    app = await buildApp({ config: testConfig(), database: await sharedTestDatabase(), logger: false });
    app.addHook('onRequest', async (req) => {
      if (req.url === '/health') healthHits += 1;
    });
    await app.listen({ port: 0, host: '0.0.0.0' });
    base = `:${(app.server.address() as { port: number }).port}`;
  });
  afterAll(() => app.close());

  it("cannot reach the API's own address, by loopback or by the host's interface address", async () => {
    const own = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .filter((e) => e.family === 'IPv4')
      .map((e) => e.address);
    const services = (mode: 'any' | 'public-only') =>
      createEngineServices({
        db: app.db,
        models: app.runtime.models,
        httpPolicy: { mode },
        scope: {
          organizationId: '00000000-0000-0000-0000-000000000000',
          workspaceId: '00000000-0000-0000-0000-000000000000',
          userId: null,
          chatbotId: null,
          chatbotName: 'ssrf',
          conversationId: null,
          storeContent: true,
        },
      });
    const get = (mode: 'any' | 'public-only', url: string) =>
      services(mode).http({
        method: 'GET',
        url,
        headers: {},
        timeoutMs: 2000,
        signal: new AbortController().signal,
      });
    for (const address of own) {
      // The address does reach the API (checked under `any`)...
      const before = healthHits;
      expect((await get('any', `http://${address}${base}/health`)).status).toBe(200);
      expect(healthHits).toBe(before + 1);
      // ...and public-only refuses it before connecting.
      const refused = await get('public-only', `http://${address}${base}/health`).catch((e: unknown) => e);
      expect(refused, address).toMatchObject({ code: 'unsafe_url', status: 422 });
      expect(healthHits).toBe(before + 1);
    }
  });
});
