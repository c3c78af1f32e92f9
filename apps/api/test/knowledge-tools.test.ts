import { tools } from '@atelier/db';
import { createSecretBox } from '@atelier/metering';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, startTestApp, type Org, type TestApp } from './helpers';

const TOKEN = 'figd_very-secret-figma-token-WXYZ';
let t: TestApp;
let org: Org;
let other: Org;
let ws: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
  other = await createOrg(t.app);
  ws = await org.workspace(org.admin, 'Tools');
});
afterAll(() => t.close());

const create = (body: object, token = org.admin.token) =>
  call(t.app, 'POST', '/tools', { token, body: { workspace_id: ws, ...body } });

describe('tools', () => {
  it('GET /tools/types lists the four types with their settings', async () => {
    const res = await call(t.app, 'GET', '/tools/types', { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { type: string }) => d.type)).toEqual([
      'figma',
      'jira',
      'notion',
      'gitbook',
    ]);
    const jira = res.body.data.find((d: { type: string }) => d.type === 'jira');
    expect(jira.fields.map((f: { name: string; secret: boolean }) => [f.name, f.secret])).toEqual([
      ['site_url', false],
      ['email', false],
      ['api_token', true],
    ]);
  });

  it('seals the secret, never answers it, shows a hint; CRUD round trip', async () => {
    const created = await create({ name: 'Design', type: 'figma', settings: { access_token: TOKEN } });
    expect(created.status).toBe(201);
    const id = created.body.tool_id as string;

    const list = await call(t.app, 'GET', `/tools?workspace_id=${ws}`, { token: org.admin.token });
    expect(list.body.data).toEqual([
      expect.objectContaining({
        tool_id: id,
        name: 'Design',
        type: 'figma',
        settings: {},
        secret_hint: '…WXYZ',
      }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain('very-secret');
    const [row] = await t.app.db.select().from(tools).where(eq(tools.id, id));
    expect(JSON.stringify(row)).not.toContain('very-secret');
    expect(createSecretBox(t.app.config.encryptionKey).open(row!.secretEncrypted!, id)).toBe(TOKEN);

    const renamed = await call(t.app, 'PUT', `/tools/${id}`, {
      token: org.admin.token,
      body: { name: 'Renamed', description: 'Our designs' },
    });
    expect(renamed.body.data).toMatchObject({
      name: 'Renamed',
      description: 'Our designs',
      secret_hint: '…WXYZ',
    });
    const [kept] = await t.app.db.select().from(tools).where(eq(tools.id, id));
    expect(kept!.secretEncrypted).toBe(row!.secretEncrypted);

    await call(t.app, 'PUT', `/tools/${id}`, {
      token: org.admin.token,
      body: { settings: { access_token: 'figd_new-1234' } },
    });
    const got = await call(t.app, 'GET', `/tools/${id}`, { token: org.admin.token });
    expect(got.body.data.secret_hint).toBe('…1234');

    expect((await call(t.app, 'DELETE', `/tools/${id}`, { token: org.admin.token })).status).toBe(200);
    expect((await call(t.app, 'GET', `/tools/${id}`, { token: org.admin.token })).status).toBe(404);
  });

  it('keeps jira settings in the clear and its token sealed; gitbook needs no token', async () => {
    const jira = await create({
      name: 'Tickets',
      type: 'jira',
      settings: { site_url: 'https://team.atlassian.net', email: 'me@example.test', api_token: 'jira-0987' },
    });
    const got = await call(t.app, 'GET', `/tools/${jira.body.tool_id}`, { token: org.admin.token });
    expect(got.body.data.settings).toEqual({
      site_url: 'https://team.atlassian.net',
      email: 'me@example.test',
    });
    expect(got.body.data.secret_hint).toBe('…0987');
    const gitbook = await create({ name: 'Docs', type: 'gitbook' });
    expect(gitbook.status).toBe(201);
    const shown = await call(t.app, 'GET', `/tools/${gitbook.body.tool_id}`, { token: org.admin.token });
    expect(shown.body.data.secret_hint).toBeNull();
  });

  it('refuses missing required settings, unknown ones and a bad site URL', async () => {
    const missing = await create({ name: 'N', type: 'notion' });
    expect(missing).toMatchObject({ status: 422, body: { code: 'setting_required' } });
    const unknown = await create({
      name: 'N',
      type: 'notion',
      settings: { integration_token: 'x', color: 'red' },
    });
    expect(unknown).toMatchObject({ status: 422, body: { code: 'unknown_setting' } });
    const badUrl = await create({
      name: 'J',
      type: 'jira',
      settings: { site_url: 'file:///etc/passwd', email: 'a@b.c', api_token: 't' },
    });
    expect(badUrl).toMatchObject({ status: 422, body: { code: 'invalid_url' } });
  });

  it("another organization's tools and workspaces are not found", async () => {
    const id = (
      await create({ name: 'Mine', type: 'notion', settings: { integration_token: 'secret_abcd' } })
    ).body.tool_id;
    const token = other.admin.token;
    expect((await call(t.app, 'GET', `/tools/${id}`, { token })).status).toBe(404);
    expect((await call(t.app, 'PUT', `/tools/${id}`, { token, body: { name: 'x' } })).status).toBe(404);
    expect((await call(t.app, 'DELETE', `/tools/${id}`, { token })).status).toBe(404);
    expect((await call(t.app, 'GET', `/tools?workspace_id=${ws}`, { token })).status).toBe(404);
    const user = await org.member('user');
    expect((await call(t.app, 'GET', `/tools/${id}`, { token: user.token })).status).toBe(403);
  });
});
