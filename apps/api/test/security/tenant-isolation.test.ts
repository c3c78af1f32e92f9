import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, startTestApp, type Actor, type Org, type TestApp } from '../helpers';

/** Two organizations: nothing of one can be read or changed from the other. */
let t: TestApp;
let a: Org;
let b: Org;
let aUser: Actor;
let aWorkspace: string;

beforeAll(async () => {
  t = await startTestApp();
  a = await createOrg(t.app);
  b = await createOrg(t.app);
  aUser = await a.member('user');
  aWorkspace = await a.workspace(a.admin, 'A only');
  await call(t.app, 'POST', '/user_workspace_roles', {
    token: a.admin.token,
    body: { user_id: aUser.id, workspace_id: aWorkspace, workspace_role_id: 'viewer' },
  });
});
afterAll(() => t.close());

describe('tenant isolation', () => {
  it("lists show only the caller's organization", async () => {
    const users = await call(t.app, 'GET', '/users', { token: b.admin.token });
    const ids = users.body.users.map((u: { id: string }) => u.id);
    expect(ids).toContain(b.admin.id);
    expect(ids).not.toContain(a.admin.id);
    expect(ids).not.toContain(aUser.id);
    const workspaces = await call(t.app, 'GET', '/workspaces', { token: b.admin.token });
    expect(workspaces.body.workspaces.map((w: { id: string }) => w.id)).not.toContain(aWorkspace);
    const credits = await t.app.services.credits.charge(a.id, { amount: 100, description: 'a spends' });
    expect(credits.remaining_monthly_credits).toBe(900);
    expect(
      (await call(t.app, 'GET', '/credits/plan', { token: b.admin.token })).body.remaining_monthly_credits,
    ).toBe(1000);
  });

  it("another organization's ids answer 404 and change nothing", async () => {
    const attempts: [string, string, object?][] = [
      ['GET', `/users/${aUser.id}`],
      ['PUT', `/users/${aUser.id}`, { user_role_id: 'admin' }],
      ['DELETE', `/users/${aUser.id}`],
      ['POST', `/users/${aUser.id}/invitation`],
      ['GET', `/users/workspace/${aWorkspace}`],
      ['PUT', `/workspaces/${aWorkspace}`, { name: 'Taken over' }],
      ['DELETE', `/workspaces/${aWorkspace}`],
      [
        'POST',
        '/user_workspace_roles',
        { user_id: b.admin.id, workspace_id: aWorkspace, workspace_role_id: 'admin' },
      ],
      ['PUT', `/user_workspace_roles/${aUser.id}/${aWorkspace}`, { workspace_role_id: 'admin' }],
      ['DELETE', `/user_workspace_roles/${aUser.id}/${aWorkspace}`],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call(t.app, method as 'GET', url, { token: b.admin.token, body });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain(aUser.email);
    }
    const bWorkspace = await b.workspace(b.admin, 'B');
    const addForeignUser = await call(t.app, 'POST', '/user_workspace_roles', {
      token: b.admin.token,
      body: { user_id: aUser.id, workspace_id: bWorkspace, workspace_role_id: 'viewer' },
    });
    expect(addForeignUser.status).toBe(404);

    // Organization A is exactly as it was.
    const user = await call(t.app, 'GET', `/users/${aUser.id}`, { token: a.admin.token });
    expect(user.body.user.user_role_id).toBe('user');
    const members = await call(t.app, 'GET', `/users/workspace/${aWorkspace}`, { token: a.admin.token });
    expect(
      members.body.users.map((u: { id: string; workspace_role_id: string }) => [u.id, u.workspace_role_id]),
    ).toContainEqual([aUser.id, 'viewer']);
    const ws = await call(t.app, 'GET', '/workspaces', { token: a.admin.token });
    expect(ws.body.workspaces.find((w: { id: string }) => w.id === aWorkspace).name).toBe('A only');
  });
});
