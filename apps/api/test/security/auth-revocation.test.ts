import { users } from '@atelier/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  call,
  createOrg,
  linkToken,
  login,
  PASSWORD,
  startTestApp,
  uniqueEmail,
  type Org,
  type TestApp,
} from '../helpers';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
});
afterAll(() => t.close());

const NEW_PASSWORD = 'Brand-New-Pass-7';
const me = (token: string) => call(t.app, 'GET', '/users/details/me', { token });
const refresh = (refreshToken: string) =>
  call(t.app, 'POST', '/token/refresh', { body: { refresh_token: refreshToken } });

async function resetPassword(email: string, password = NEW_PASSWORD) {
  const before = t.mails.length;
  await call(t.app, 'POST', '/auth/request-password-reset', { body: { email } });
  // The mail is sent in the background.
  const token = await vi.waitFor(() => linkToken(t.mails.slice(before), email, '/reset-password'));
  const done = await call(t.app, 'POST', '/auth/set-password', { body: { token, password } });
  expect(done.status).toBe(200);
}

function expectRevoked(res: { status: number; body: { code: string; detail: string } }) {
  expect(res.status).toBe(401);
  expect(res.body.code).toBe('token_revoked');
  expect(res.body.detail).toMatch(/logout or a password change/);
}

describe('access tokens end with the session', () => {
  it('logout ends the access token at once; a fresh login works', async () => {
    const user = await org.member('user');
    const session = await login(t.app, user.email);
    expect((await me(session.access_token)).status).toBe(200);

    const out = await call(t.app, 'POST', '/token/revoke', {
      body: { refresh_token: session.refresh_token },
    });
    expect(out.status).toBe(204);
    expectRevoked(await me(session.access_token));

    const fresh = await login(t.app, user.email);
    expect((await me(fresh.access_token)).status).toBe(200);
  });

  it("logout ends the user's other access tokens too, but their sessions refresh", async () => {
    const user = await org.member('user');
    const laptop = await login(t.app, user.email);
    const phone = await login(t.app, user.email);
    await call(t.app, 'POST', '/token/revoke', { body: { refresh_token: laptop.refresh_token } });

    expectRevoked(await me(phone.access_token));
    const renewed = await refresh(phone.refresh_token);
    expect(renewed.status).toBe(200);
    expect((await me(renewed.body.access_token)).status).toBe(200);
    expect((await refresh(laptop.refresh_token)).status).toBe(401);
  });

  it('logging out with a session already closed ends nothing more', async () => {
    const user = await org.member('user');
    const old = await login(t.app, user.email);
    await call(t.app, 'POST', '/token/revoke', { body: { refresh_token: old.refresh_token } });
    const current = await login(t.app, user.email);
    // Replaying the dead refresh token (e.g. a stolen one) does not end the current session.
    expect(
      (await call(t.app, 'POST', '/token/revoke', { body: { refresh_token: old.refresh_token } })).status,
    ).toBe(204);
    expect((await me(current.access_token)).status).toBe(200);
  });

  it('a password reset ends access and refresh tokens; the new password logs in', async () => {
    const user = await org.member('user');
    const session = await login(t.app, user.email);
    await resetPassword(user.email);

    expectRevoked(await me(session.access_token));
    expectRevoked(await me(user.token));
    const oldRefresh = await refresh(session.refresh_token);
    expect(oldRefresh.status).toBe(401);

    const fresh = await login(t.app, user.email, NEW_PASSWORD);
    expect((await me(fresh.access_token)).status).toBe(200);
    expect((await refresh(fresh.refresh_token)).status).toBe(200);
  });

  it('no token of a refresh racing a reset survives the reset', async () => {
    const user = await org.member('user');
    const session = await login(t.app, user.email);
    const before = t.mails.length;
    await call(t.app, 'POST', '/auth/request-password-reset', { body: { email: user.email } });
    const token = await vi.waitFor(() => linkToken(t.mails.slice(before), user.email, '/reset-password'));

    const [raced, reset] = await Promise.all([
      refresh(session.refresh_token),
      call(t.app, 'POST', '/auth/set-password', { body: { token, password: NEW_PASSWORD } }),
    ]);
    expect(reset.status).toBe(200);
    if (raced.status === 200) {
      expect((await refresh(raced.body.refresh_token)).status).toBe(401);
      expectRevoked(await me(raced.body.access_token));
    } else {
      expect(raced.body.code).toBe('refresh_token_reused');
    }
  });

  it('completing onboarding (setting the first password) starts a working session', async () => {
    const email = uniqueEmail('invitee');
    await call(t.app, 'POST', '/users', { token: org.admin.token, body: { email, user_role_id: 'user' } });
    const done = await call(t.app, 'POST', '/users/onboarding/complete', {
      body: {
        token: linkToken(t.mails, email, '/onboarding'),
        password: NEW_PASSWORD,
        firstName: 'Ada',
        lastName: 'Lovelace',
        accept_terms: true,
      },
    });
    expect(done.status).toBe(200);
    expect((await me(done.body.access_token)).status).toBe(200);
  });
});

describe('one email in two organizations', () => {
  const OTHER_PASSWORD = 'Other-Secret-42';

  async function accountIn(target: Org, email: string, password: string): Promise<string> {
    const res = await call(t.app, 'POST', '/users', {
      token: target.admin.token,
      body: { email, user_role_id: 'creator', password },
    });
    expect(res.status).toBe(201);
    return res.body.user_id as string;
  }

  async function loginOrg(email: string, password: string): Promise<string> {
    const session = await login(t.app, email, password);
    return (await me(session.access_token)).body.user.organization_id as string;
  }

  it('login opens the account whose password matches', async () => {
    const other = await createOrg(t.app);
    const email = uniqueEmail('twice');
    await accountIn(org, email, PASSWORD);
    await accountIn(other, email, OTHER_PASSWORD);

    expect(await loginOrg(email, PASSWORD)).toBe(org.id);
    expect(await loginOrg(email.toUpperCase(), OTHER_PASSWORD)).toBe(other.id);
    const wrong = await call(t.app, 'POST', '/token', { body: { email, password: 'Neither-Of-Them-1' } });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'invalid_credentials']);
  });

  it('when one password opens both, the account logged into most recently wins', async () => {
    const other = await createOrg(t.app);
    const email = uniqueEmail('same');
    await accountIn(org, email, PASSWORD);
    const second = await accountIn(other, email, PASSWORD);

    // Neither has logged in yet: the older account.
    expect(await loginOrg(email, PASSWORD)).toBe(org.id);
    expect(await loginOrg(email, PASSWORD)).toBe(org.id);
    await t.app.db
      .update(users)
      .set({ lastLoginAt: new Date(Date.now() + 60_000) })
      .where(eq(users.id, second));
    expect(await loginOrg(email, PASSWORD)).toBe(other.id);
  });

  it('a reset request mails every account, naming its organization; each link resets its own', async () => {
    const other = await createOrg(t.app);
    const email = uniqueEmail('reset-twice');
    await accountIn(org, email, PASSWORD);
    await accountIn(other, email, OTHER_PASSWORD);
    const before = t.mails.length;

    const res = await call(t.app, 'POST', '/auth/request-password-reset', { body: { email } });
    expect(res.status).toBe(200);
    const mails = await vi.waitFor(() => {
      const sent = t.mails.slice(before).filter((m) => m.to === email);
      expect(sent).toHaveLength(2);
      return sent;
    });
    const orgNames = [`Org ${org.admin.email}`, `Org ${other.admin.email}`];
    const toOther = mails.find((m) => m.text.includes(`"${orgNames[1]}"`));
    expect(mails.find((m) => m.text.includes(`"${orgNames[0]}"`))).toBeDefined();
    expect(toOther?.subject).toContain(orgNames[1]);

    const token = linkToken([toOther!], email, '/reset-password');
    const done = await call(t.app, 'POST', '/auth/set-password', { body: { token, password: NEW_PASSWORD } });
    expect(done.status).toBe(200);
    expect(await loginOrg(email, NEW_PASSWORD)).toBe(other.id);
    expect(await loginOrg(email, PASSWORD)).toBe(org.id);
    const old = await call(t.app, 'POST', '/token', { body: { email, password: OTHER_PASSWORD } });
    expect(old.status).toBe(401);
  });
});
