import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createOrg,
  login,
  PASSWORD,
  startTestApp,
  uniqueEmail,
  type Org,
  type TestApp,
} from './helpers';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
});
afterAll(() => t.close());

describe('users', () => {
  it('GET /users/roles answers the three application roles', async () => {
    const res = await call(t.app, 'GET', '/users/roles', { token: org.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.user_roles.map((r: { id: string }) => r.id)).toEqual(['admin', 'creator', 'user']);
  });

  it('an admin creates, reads, lists, updates and deletes a user', async () => {
    const email = uniqueEmail('Mixed.Case');
    const created = await call(t.app, 'POST', '/users', {
      token: org.admin.token,
      body: { email, user_role_id: 'user', firstName: 'Grace', lastName: 'Hopper', jobTitle: 'Admiral' },
    });
    expect(created.status).toBe(201);
    const id = created.body.user_id;

    const got = await call(t.app, 'GET', `/users/${id}`, { token: org.admin.token });
    expect(got.body.user).toMatchObject({
      id,
      email: email.toLowerCase(),
      firstName: 'Grace',
      lastName: 'Hopper',
      jobTitle: 'Admiral',
      user_role_id: 'user',
      user_role: { id: 'user', name: 'User' },
      organization_id: org.id,
      language_preference: 'en',
    });
    expect(got.body.user).not.toHaveProperty('password');
    expect(JSON.stringify(got.body)).not.toMatch(/argon2|password_hash|passwordHash/);

    const list = await call(t.app, 'GET', '/users', { token: org.admin.token });
    expect(list.body.users.map((u: { id: string }) => u.id)).toContain(id);

    const updated = await call(t.app, 'PUT', `/users/${id}`, {
      token: org.admin.token,
      body: { user_role_id: 'creator', language_preference: 'fr', jobTitle: 'Rear admiral' },
    });
    expect(updated.status).toBe(204);
    const after = await call(t.app, 'GET', `/users/${id}`, { token: org.admin.token });
    expect(after.body.user).toMatchObject({
      user_role_id: 'creator',
      language_preference: 'fr',
      jobTitle: 'Rear admiral',
    });

    expect((await call(t.app, 'DELETE', `/users/${id}`, { token: org.admin.token })).status).toBe(204);
    expect((await call(t.app, 'GET', `/users/${id}`, { token: org.admin.token })).status).toBe(404);
    expect((await call(t.app, 'DELETE', `/users/${id}`, { token: org.admin.token })).status).toBe(404);
  });

  it('an admin may set a password directly; it must follow the policy', async () => {
    const email = uniqueEmail();
    const weak = await call(t.app, 'POST', '/users', {
      token: org.admin.token,
      body: { email, user_role_id: 'user', password: 'password1' },
    });
    expect(weak.status).toBe(422);
    const ok = await call(t.app, 'POST', '/users', {
      token: org.admin.token,
      body: { email, user_role_id: 'user', password: PASSWORD },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.invitation_url).toBeNull();
    await login(t.app, email);
  });

  it('an email used only in another organization is accepted and reveals nothing', async () => {
    const other = await createOrg(t.app);
    const res = await call(t.app, 'POST', '/users', {
      token: other.admin.token,
      body: { email: org.admin.email.toUpperCase(), user_role_id: 'user', password: PASSWORD },
    });
    expect(res.status).toBe(201);
    const listed = await call(t.app, 'GET', '/users', { token: other.admin.token });
    expect(listed.body.users.map((u: { email: string }) => u.email)).toContain(org.admin.email);
    // The same email, renamed to, in the other organization: also fine.
    const member = await other.member('user');
    const rename = await call(t.app, 'PUT', `/users/${member.id}`, {
      token: other.admin.token,
      body: { email: uniqueEmail('renamed') },
    });
    expect(rename.status).toBe(204);
  });

  it('emails are unique within an organization, whatever their case', async () => {
    const res = await call(t.app, 'POST', '/users', {
      token: org.admin.token,
      body: { email: org.admin.email.toUpperCase(), user_role_id: 'user' },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('email_taken');
    const member = await org.member('user');
    const rename = await call(t.app, 'PUT', `/users/${member.id}`, {
      token: org.admin.token,
      body: { email: org.admin.email },
    });
    expect(rename.status).toBe(409);
    expect(rename.body.code).toBe('email_taken');
  });

  it('GET /users/details/me and PATCH /users/profile/me work for every role', async () => {
    for (const role of ['admin', 'creator', 'user'] as const) {
      const actor = role === 'admin' ? org.admin : await org.member(role);
      const patched = await call(t.app, 'PATCH', '/users/profile/me', {
        token: actor.token,
        body: { firstName: 'Marie', lastName: 'Curie', jobTitle: 'Chemist', language_preference: 'fr' },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.message).toBeTruthy();
      const me = await call(t.app, 'GET', '/users/details/me', { token: actor.token });
      expect(me.body.user).toMatchObject({
        firstName: 'Marie',
        language_preference: 'fr',
        user_role_id: role,
      });
    }
  });

  it('the profile cannot change role, organization, email or password (no mass assignment)', async () => {
    const user = await org.member('user');
    for (const field of [
      { user_role_id: 'admin' },
      { organization_id: '00000000-0000-4000-8000-000000000000' },
      { email: uniqueEmail() },
      { password: 'Another-Pass-1' },
      { id: user.id },
    ]) {
      const res = await call(t.app, 'PATCH', '/users/profile/me', { token: user.token, body: field });
      expect(res.status, JSON.stringify(field)).toBe(422);
      expect(res.body.code).toBe('validation_error');
    }
    const me = await call(t.app, 'GET', '/users/details/me', { token: user.token });
    expect(me.body.user.user_role_id).toBe('user');
  });

  it('an admin cannot set unknown fields on a user either', async () => {
    const user = await org.member('user');
    const res = await call(t.app, 'PUT', `/users/${user.id}`, {
      token: org.admin.token,
      body: { organization_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(res.status).toBe(422);
  });

  it('users read only themselves; creators and admins read anyone in the organization', async () => {
    const user = await org.member('user');
    const creator = await org.member('creator');
    expect((await call(t.app, 'GET', `/users/${user.id}`, { token: user.token })).status).toBe(200);
    expect((await call(t.app, 'GET', `/users/${creator.id}`, { token: user.token })).status).toBe(403);
    expect((await call(t.app, 'GET', `/users/${user.id}`, { token: creator.token })).status).toBe(200);
  });

  it('the organization keeps at least one admin, and nobody deletes themselves', async () => {
    const solo = await createOrg(t.app);
    const self = await call(t.app, 'DELETE', `/users/${solo.admin.id}`, { token: solo.admin.token });
    expect([self.status, self.body.code]).toEqual([409, 'cannot_delete_self']);
    const demote = await call(t.app, 'PUT', `/users/${solo.admin.id}`, {
      token: solo.admin.token,
      body: { user_role_id: 'user' },
    });
    expect([demote.status, demote.body.code]).toEqual([409, 'last_admin']);
    const second = await solo.member('admin');
    const ok = await call(t.app, 'PUT', `/users/${solo.admin.id}`, {
      token: second.token,
      body: { user_role_id: 'creator' },
    });
    expect(ok.status).toBe(204);
    // The demotion takes effect at once, on the token already issued.
    expect((await call(t.app, 'GET', '/users/roles', { token: solo.admin.token })).status).toBe(200);
    expect(
      (
        await call(t.app, 'POST', '/users', {
          token: solo.admin.token,
          body: { email: uniqueEmail(), user_role_id: 'user' },
        })
      ).status,
    ).toBe(403);
  });

  it('an invitation is mailed when no password is given', async () => {
    const email = uniqueEmail();
    const res = await call(t.app, 'POST', '/users', {
      token: org.admin.token,
      body: { email, user_role_id: 'user' },
    });
    expect(res.status).toBe(201);
    const mail = t.mails.find((m) => m.to === email);
    // No mail server (this mailer only logs): the link is answered to the admin, who shares it.
    expect(res.body.invitation_mailed).toBe(false);
    expect(mail?.text).toContain(res.body.invitation_url);
    const again = await call(t.app, 'POST', `/users/${res.body.user_id}/invitation`, {
      token: org.admin.token,
    });
    expect(again.body).toMatchObject({ invitation_mailed: false });
    expect(again.body.invitation_url).toMatch(/\/onboarding\//);
    const resend = await call(t.app, 'POST', `/users/${org.admin.id}/invitation`, { token: org.admin.token });
    expect([resend.status, resend.body.code]).toEqual([409, 'already_onboarded']);
  });
});
