import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createOrg,
  login,
  PASSWORD,
  startTestApp,
  testConfig,
  type Org,
  type TestApp,
} from './helpers';
import { forgeJwt } from './jwt-forge';

let t: TestApp;
let org: Org;
const secret = testConfig().jwtSecret;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
});
afterAll(() => t.close());

describe('POST /token', () => {
  it('answers access and refresh tokens for the right password', async () => {
    const res = await call(t.app, 'POST', '/token', { body: { email: org.admin.email, password: PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 900 });
    expect(res.body.access_token.split('.')).toHaveLength(3);
    expect(res.body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await call(t.app, 'GET', '/users/details/me', { token: res.body.access_token });
    expect(me.body.user.email).toBe(org.admin.email);
  });

  it('accepts the email in any case', async () => {
    const res = await call(t.app, 'POST', '/token', {
      body: { email: org.admin.email.toUpperCase(), password: PASSWORD },
    });
    expect(res.status).toBe(200);
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const wrong = await call(t.app, 'POST', '/token', {
      body: { email: org.admin.email, password: 'Nope-1234!' },
    });
    const unknown = await call(t.app, 'POST', '/token', {
      body: { email: 'nobody@example.test', password: 'Nope-1234!' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe('invalid_credentials');
  });
});

describe('access tokens', () => {
  const claims = () => ({ sub: org.admin.id, org: org.id, role: 'admin', ver: 0 });

  it('a valid hand-made token with the server secret is accepted (the forge is right)', async () => {
    const token = forgeJwt({ ...claims(), iat: now(), exp: now() + 60 }, { secret });
    expect((await call(t.app, 'GET', '/users/details/me', { token })).status).toBe(200);
  });

  it('an expired token answers 401 token_expired', async () => {
    const token = forgeJwt({ ...claims(), iat: now() - 3600, exp: now() - 60 }, { secret });
    const res = await call(t.app, 'GET', '/users/details/me', { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('token_expired');
  });

  it('a token accepted before is refused once it expires (its verification is kept only until then)', async () => {
    const token = forgeJwt({ ...claims(), iat: now(), exp: now() + 2 }, { secret });
    expect((await call(t.app, 'GET', '/users/details/me', { token })).status).toBe(200);
    expect((await call(t.app, 'GET', '/users/details/me', { token })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_100));
    const res = await call(t.app, 'GET', '/users/details/me', { token });
    expect([res.status, res.body.code]).toEqual([401, 'token_expired']);
  });

  it('a token signed with another secret answers 401', async () => {
    const token = forgeJwt(
      { ...claims(), iat: now(), exp: now() + 60 },
      { secret: 'another-secret-another-secret-000' },
    );
    const res = await call(t.app, 'GET', '/users/details/me', { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_token');
  });

  it('an unsigned token (alg none) answers 401', async () => {
    const token = forgeJwt({ ...claims(), iat: now(), exp: now() + 60 }, { alg: 'none' });
    expect((await call(t.app, 'GET', '/users/details/me', { token })).status).toBe(401);
  });

  it('a token claiming another role than the user has is judged by the user row', async () => {
    const user = await org.member('user');
    const token = forgeJwt(
      { sub: user.id, org: org.id, role: 'admin', ver: 0, iat: now(), exp: now() + 60 },
      { secret },
    );
    // Even a correctly signed token cannot lift a role: the current row decides.
    expect((await call(t.app, 'GET', '/users', { token })).status).toBe(403);
  });

  it('garbage and missing tokens answer 401', async () => {
    expect((await call(t.app, 'GET', '/workspaces', { token: 'not-a-jwt' })).status).toBe(401);
    expect((await call(t.app, 'GET', '/workspaces')).status).toBe(401);
    const basic = await call(t.app, 'GET', '/workspaces', { headers: { authorization: 'Basic abc' } });
    expect(basic.status).toBe(401);
  });

  it("a changed role and a deletion take effect on the next request, though the user's row was cached", async () => {
    const creator = await org.member('creator');
    const create = () =>
      call(t.app, 'POST', '/workspaces', { token: creator.token, body: { name: `Cached ${Date.now()}` } });
    expect((await create()).status).toBe(201);
    expect((await call(t.app, 'GET', '/users/details/me', { token: creator.token })).status).toBe(200);
    const demoted = await call(t.app, 'PUT', `/users/${creator.id}`, {
      token: org.admin.token,
      body: { user_role_id: 'user' },
    });
    expect(demoted.status).toBe(204);
    expect((await create()).status).toBe(403);
    expect((await call(t.app, 'DELETE', `/users/${creator.id}`, { token: org.admin.token })).status).toBe(
      204,
    );
    expect((await call(t.app, 'GET', '/users/details/me', { token: creator.token })).status).toBe(401);
  });

  it('a deleted user is locked out at once', async () => {
    const user = await org.member('user');
    expect((await call(t.app, 'DELETE', `/users/${user.id}`, { token: org.admin.token })).status).toBe(204);
    expect((await call(t.app, 'GET', '/users/details/me', { token: user.token })).status).toBe(401);
  });
});

describe('refresh tokens', () => {
  it('rotate on every refresh; the old one no longer works', async () => {
    const first = await login(t.app, org.admin.email);
    const second = await call(t.app, 'POST', '/token/refresh', {
      body: { refresh_token: first.refresh_token },
    });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect((await call(t.app, 'GET', '/workspaces', { token: second.body.access_token })).status).toBe(200);
    const third = await call(t.app, 'POST', '/token/refresh', {
      body: { refresh_token: second.body.refresh_token },
    });
    expect(third.status).toBe(200);
  });

  it('reuse of a rotated token revokes the whole family', async () => {
    const first = await login(t.app, org.admin.email);
    const second = await call(t.app, 'POST', '/token/refresh', {
      body: { refresh_token: first.refresh_token },
    });
    const replay = await call(t.app, 'POST', '/token/refresh', {
      body: { refresh_token: first.refresh_token },
    });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('refresh_token_reused');
    // The legitimate newest token of the family is dead too.
    const legit = await call(t.app, 'POST', '/token/refresh', {
      body: { refresh_token: second.body.refresh_token },
    });
    expect(legit.status).toBe(401);
    // Another session of the same user is untouched.
    const other = await login(t.app, org.admin.email);
    expect(
      (await call(t.app, 'POST', '/token/refresh', { body: { refresh_token: other.refresh_token } })).status,
    ).toBe(200);
  });

  it('of two concurrent refreshes with one token only one succeeds', async () => {
    const first = await login(t.app, org.admin.email);
    const results = await Promise.all([
      call(t.app, 'POST', '/token/refresh', { body: { refresh_token: first.refresh_token } }),
      call(t.app, 'POST', '/token/refresh', { body: { refresh_token: first.refresh_token } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('an unknown refresh token answers 401 and needs no auth header', async () => {
    const res = await call(t.app, 'POST', '/token/refresh', { body: { refresh_token: 'made-up' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_refresh_token');
  });

  it('logout revokes the refresh token', async () => {
    const user = await org.member('user');
    const session = await login(t.app, user.email);
    expect(
      (await call(t.app, 'POST', '/token/revoke', { body: { refresh_token: session.refresh_token } })).status,
    ).toBe(204);
    const res = await call(t.app, 'POST', '/token/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(res.status).toBe(401);
  });

  it('an expired refresh token answers 401 refresh_token_expired', async () => {
    const session = await login(t.app, org.admin.email);
    const { refreshTokens } = await import('@atelier/db');
    const { eq } = await import('drizzle-orm');
    const { hashToken } = await import('../src/services/auth/secrets');
    await t.app.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.tokenHash, hashToken(session.refresh_token)));
    const res = await call(t.app, 'POST', '/token/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('refresh_token_expired');
  });
});
