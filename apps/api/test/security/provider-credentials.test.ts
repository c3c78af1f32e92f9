import { providers } from '@atelier/db';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, startTestApp, type Actor, type Org, type TestApp } from '../helpers';

/** Credentials written into a provider's base URL are a secret: sealed apart, never shown. */
let t: TestApp;
let fake: FakeProvider;
let org: Org;
let workspace: string;
let user: Actor;

const row = async (id: string) =>
  (await t.app.db.select().from(providers).where(eq(providers.id, id)).limit(1))[0]!;

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeProvider();
  org = await createOrg(t.app);
  workspace = await org.workspace(org.admin, 'Credentials');
  user = await org.member('user');
  await call(t.app, 'POST', '/user_workspace_roles', {
    token: org.admin.token,
    body: { user_id: user.id, workspace_id: workspace, workspace_role_id: 'viewer' },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('provider base URL credentials', () => {
  it('are taken out of the stored and shown URL, sealed, and put back only to call it', async () => {
    const withCredentials = fake.url.replace('http://', 'http://proxy-user:S3cret-pass@') + '/v1';
    const created = await call(t.app, 'POST', '/providers', {
      token: org.admin.token,
      body: {
        workspace_id: workspace,
        name: 'Behind a proxy',
        kind: 'openai_compatible',
        base_url: withCredentials,
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.provider_id as string;

    const listed = await call(t.app, 'GET', `/providers?workspace_id=${workspace}`, {
      token: org.admin.token,
    });
    expect(listed.body.providers[0].base_url).toBe(`${fake.url}/v1`);
    expect(JSON.stringify(listed.body)).not.toMatch(/S3cret|proxy-user/);

    const stored = await row(id);
    expect(stored.baseUrl).toBe(`${fake.url}/v1`);
    expect(stored.baseUrlUserinfoEncrypted).toBeTruthy();
    expect(stored.baseUrlUserinfoEncrypted).not.toContain('S3cret');
    expect(t.app.services.providers.configFor(stored).baseUrl).toBe(withCredentials);

    // The form sends the shown URL back: the credentials stay while the origin does.
    await call(t.app, 'PUT', `/providers/${id}`, {
      token: org.admin.token,
      body: { name: 'Renamed', base_url: `${fake.url}/v1/` },
    });
    expect(t.app.services.providers.configFor(await row(id)).baseUrl).toContain('proxy-user:S3cret-pass@');
    // Another origin: they were for the old one, and are dropped.
    await call(t.app, 'PUT', `/providers/${id}`, {
      token: org.admin.token,
      body: { base_url: fake.url.replace('127.0.0.1', 'localhost') + '/v1' },
    });
    expect((await row(id)).baseUrlUserinfoEncrypted).toBeNull();
  });

  it('a plain user never sees a base URL; builders do', async () => {
    const created = await call(t.app, 'POST', '/providers', {
      token: org.admin.token,
      body: { workspace_id: workspace, name: 'Fake', kind: 'openai_compatible', base_url: `${fake.url}/v1` },
    });
    const model = await call(t.app, 'POST', '/models', {
      token: org.admin.token,
      body: {
        workspace_id: workspace,
        provider_id: created.body.provider_id,
        model_name: 'gpt-4o-mini',
        model_type: 'llm',
      },
    });
    for (const url of [
      `/models_with_partial_server?workspace_id=${workspace}`,
      `/models/${model.body.model_id}`,
    ]) {
      const asUser = await call(t.app, 'GET', url, { token: user.token });
      expect(asUser.status, url).toBe(200);
      expect(JSON.stringify(asUser.body), url).not.toContain(fake.url);
      const asAdmin = await call(t.app, 'GET', url, { token: org.admin.token });
      expect(JSON.stringify(asAdmin.body), url).toContain(fake.url);
    }
  });
});
