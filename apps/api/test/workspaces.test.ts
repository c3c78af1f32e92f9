import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, startTestApp, type Org, type TestApp } from './helpers';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
});
afterAll(() => t.close());

const ids = (res: { body: { workspaces: { id: string }[] } }) => res.body.workspaces.map((w) => w.id);

describe('workspaces', () => {
  it('GET /workspace_roles answers admin, editor and viewer', async () => {
    const res = await call(t.app, 'GET', '/workspace_roles', { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.workspace_roles.map((r: { id: string }) => r.id)).toEqual(['admin', 'editor', 'viewer']);
  });

  it('create answers workspace_id; the creator is its admin; rename and delete', async () => {
    const creator = await org.member('creator');
    const created = await call(t.app, 'POST', '/workspaces', {
      token: creator.token,
      body: { name: '  Marketing  ' },
    });
    expect(created.status).toBe(201);
    const id = created.body.workspace_id;
    const list = await call(t.app, 'GET', '/workspaces', { token: creator.token });
    expect(list.body.workspaces).toEqual([
      { id, name: 'Marketing', workspace_role_id: 'admin', created_at: expect.any(String) },
    ]);
    expect(
      (await call(t.app, 'PUT', `/workspaces/${id}`, { token: creator.token, body: { name: 'Sales' } }))
        .status,
    ).toBe(200);
    const renamed = await call(t.app, 'GET', '/workspaces', { token: creator.token });
    expect(renamed.body.workspaces[0].name).toBe('Sales');
    expect((await call(t.app, 'DELETE', `/workspaces/${id}`, { token: creator.token })).status).toBe(200);
    expect(ids(await call(t.app, 'GET', '/workspaces', { token: creator.token }))).toEqual([]);
  });

  it('an empty or whitespace name is refused; only the name may be sent', async () => {
    for (const body of [
      { name: '' },
      { name: '   ' },
      {},
      { name: 'ok', id: 'x' },
      { name: 'x'.repeat(101) },
    ]) {
      const res = await call(t.app, 'POST', '/workspaces', { token: org.admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
  });

  it('users cannot create workspaces', async () => {
    const user = await org.member('user');
    expect(
      (await call(t.app, 'POST', '/workspaces', { token: user.token, body: { name: 'Nope' } })).status,
    ).toBe(403);
  });

  it('members see their workspaces only; organization admins see all', async () => {
    const creator = await org.member('creator');
    const user = await org.member('user');
    const ws = await org.workspace(creator, 'Private');
    expect(ids(await call(t.app, 'GET', '/workspaces', { token: user.token }))).not.toContain(ws);
    expect(ids(await call(t.app, 'GET', '/workspaces', { token: org.admin.token }))).toContain(ws);
    const adminView = await call(t.app, 'GET', '/workspaces', { token: org.admin.token });
    expect(adminView.body.workspaces.find((w: { id: string }) => w.id === ws).workspace_role_id).toBeNull();
    // Not visible: 404, not 403, so the caller learns nothing.
    expect(
      (await call(t.app, 'PUT', `/workspaces/${ws}`, { token: user.token, body: { name: 'x' } })).status,
    ).toBe(404);
    expect((await call(t.app, 'GET', `/users/workspace/${ws}`, { token: user.token })).status).toBe(404);
  });

  it('members: add, list, change role, remove', async () => {
    const creator = await org.member('creator');
    const user = await org.member('user');
    const ws = await org.workspace(creator, 'Team');
    const add = await call(t.app, 'POST', '/user_workspace_roles/', {
      token: creator.token,
      body: { user_id: user.id, workspace_id: ws, workspace_role_id: 'viewer' },
    });
    expect(add.status).toBe(201);
    const dup = await call(t.app, 'POST', '/user_workspace_roles', {
      token: creator.token,
      body: { user_id: user.id, workspace_id: ws, workspace_role_id: 'editor' },
    });
    expect([dup.status, dup.body.code]).toEqual([409, 'already_member']);

    const members = await call(t.app, 'GET', `/users/workspace/${ws}`, { token: user.token });
    expect(members.status).toBe(200);
    expect(
      members.body.users
        .map((u: { id: string; workspace_role_id: string }) => [u.id, u.workspace_role_id])
        .sort(),
    ).toEqual(
      [
        [creator.id, 'admin'],
        [user.id, 'viewer'],
      ].sort(),
    );
    expect(ids(await call(t.app, 'GET', '/workspaces', { token: user.token }))).toEqual([ws]);

    const change = await call(t.app, 'PUT', `/user_workspace_roles/${user.id}/${ws}`, {
      token: creator.token,
      body: { workspace_role_id: 'admin' },
    });
    expect(change.status).toBe(200);
    const mine = await call(t.app, 'GET', '/workspaces', { token: user.token });
    expect(mine.body.workspaces[0].workspace_role_id).toBe('admin');

    expect(
      (await call(t.app, 'DELETE', `/user_workspace_roles/${user.id}/${ws}`, { token: creator.token }))
        .status,
    ).toBe(200);
    expect(ids(await call(t.app, 'GET', '/workspaces', { token: user.token }))).toEqual([]);
    expect(
      (await call(t.app, 'DELETE', `/user_workspace_roles/${user.id}/${ws}`, { token: creator.token }))
        .status,
    ).toBe(404);
  });

  it('a workspace admin cannot give up their own admin access (409); an organization admin can', async () => {
    const creator = await org.member('creator');
    const ws = await org.workspace(creator, 'Mine');
    const url = `/user_workspace_roles/${creator.id}/${ws}`;
    const demote = await call(t.app, 'PUT', url, {
      token: creator.token,
      body: { workspace_role_id: 'editor' },
    });
    expect([demote.status, demote.body.code]).toEqual([409, 'own_admin_access']);
    expect(demote.body.detail).toMatch(/your own administrator access/);
    const leave = await call(t.app, 'DELETE', url, { token: creator.token });
    expect([leave.status, leave.body.code]).toEqual([409, 'own_admin_access']);
    const members = await call(t.app, 'GET', `/users/workspace/${ws}`, { token: creator.token });
    expect(members.body.users.find((u: { id: string }) => u.id === creator.id).workspace_role_id).toBe(
      'admin',
    );

    // Organization admins manage every workspace, with or without a role in it.
    await call(t.app, 'POST', '/user_workspace_roles/', {
      token: org.admin.token,
      body: { user_id: org.admin.id, workspace_id: ws, workspace_role_id: 'admin' },
    });
    const self = `/user_workspace_roles/${org.admin.id}/${ws}`;
    expect((await call(t.app, 'DELETE', self, { token: org.admin.token })).status).toBe(200);
    // And another admin may change the creator's role.
    expect(
      (await call(t.app, 'PUT', url, { token: org.admin.token, body: { workspace_role_id: 'editor' } }))
        .status,
    ).toBe(200);
  });

  it('a workspace admin may rename and delete whatever their application role; editors may not', async () => {
    const creator = await org.member('creator');
    const user = await org.member('user');
    const editor = await org.member('user', 'editor');
    const ws = await org.workspace(creator, 'Shared');
    for (const [who, role] of [
      [user, 'admin'],
      [editor, 'editor'],
    ] as const) {
      await call(t.app, 'POST', '/user_workspace_roles', {
        token: creator.token,
        body: { user_id: who.id, workspace_id: ws, workspace_role_id: role },
      });
    }
    const denied = await call(t.app, 'PUT', `/workspaces/${ws}`, {
      token: editor.token,
      body: { name: 'x' },
    });
    expect(denied.status).toBe(403);
    expect((await call(t.app, 'DELETE', `/workspaces/${ws}`, { token: editor.token })).status).toBe(403);
    expect(
      (await call(t.app, 'PUT', `/workspaces/${ws}`, { token: user.token, body: { name: 'Renamed' } }))
        .status,
    ).toBe(200);
    // Managing members stays with admins and creators (spec: users do not open members or share).
    const share = await call(t.app, 'POST', '/user_workspace_roles', {
      token: user.token,
      body: { user_id: editor.id, workspace_id: ws, workspace_role_id: 'admin' },
    });
    expect(share.status).toBe(403);
    expect((await call(t.app, 'DELETE', `/workspaces/${ws}`, { token: user.token })).status).toBe(200);
  });

  it('a creator who is not the workspace admin cannot manage its members', async () => {
    const owner = await org.member('creator');
    const other = await org.member('creator');
    const ws = await org.workspace(owner, 'Owned');
    await call(t.app, 'POST', '/user_workspace_roles', {
      token: owner.token,
      body: { user_id: other.id, workspace_id: ws, workspace_role_id: 'editor' },
    });
    const res = await call(t.app, 'PUT', `/user_workspace_roles/${other.id}/${ws}`, {
      token: other.token,
      body: { workspace_role_id: 'admin' },
    });
    expect(res.status).toBe(403);
  });

  it('deleting a workspace removes its member links', async () => {
    const ws = await org.workspace(org.admin, 'Doomed');
    const user = await org.member('user');
    await call(t.app, 'POST', '/user_workspace_roles', {
      token: org.admin.token,
      body: { user_id: user.id, workspace_id: ws, workspace_role_id: 'viewer' },
    });
    expect((await call(t.app, 'DELETE', `/workspaces/${ws}`, { token: org.admin.token })).status).toBe(200);
    expect(ids(await call(t.app, 'GET', '/workspaces', { token: user.token }))).toEqual([]);
    expect((await call(t.app, 'DELETE', `/workspaces/${ws}`, { token: org.admin.token })).status).toBe(404);
  });
});
