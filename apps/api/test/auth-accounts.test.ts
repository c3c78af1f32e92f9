import { oneTimeTokens } from '@atelier/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../src/services/auth/secrets';
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
} from './helpers';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
});
afterAll(() => t.close());

const NEW_PASSWORD = 'Brand-New-Pass-7';

async function expire(token: string) {
  await t.app.db
    .update(oneTimeTokens)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(oneTimeTokens.tokenHash, hashToken(token)));
}

describe('password reset', () => {
  it('answers 200 for a known and an unknown email alike, and mails only the known one', async () => {
    const user = await org.member('user');
    const before = t.mails.length;
    const known = await call(t.app, 'POST', '/auth/request-password-reset', { body: { email: user.email } });
    const unknown = await call(t.app, 'POST', '/auth/request-password-reset', {
      body: { email: uniqueEmail('ghost') },
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    // The mail is sent in the background.
    await vi.waitFor(() => expect(t.mails.slice(before).map((m) => m.to)).toEqual([user.email]));
  });

  it('sets a new password once; sessions are closed; the link cannot be reused', async () => {
    const user = await org.member('user');
    const session = await login(t.app, user.email);
    await call(t.app, 'POST', '/auth/request-password-reset', { body: { email: user.email } });
    const token = await vi.waitFor(() => linkToken(t.mails, user.email, '/reset-password'));

    const done = await call(t.app, 'POST', '/auth/set-password', { body: { token, password: NEW_PASSWORD } });
    expect(done.status).toBe(200);
    expect(
      (await call(t.app, 'POST', '/token', { body: { email: user.email, password: PASSWORD } })).status,
    ).toBe(401);
    await login(t.app, user.email, NEW_PASSWORD);
    const oldSession = await call(t.app, 'POST', '/token/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(oldSession.status).toBe(401);

    const again = await call(t.app, 'POST', '/auth/set-password', {
      body: { token, password: NEW_PASSWORD },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('reset_token_used');
  });

  it('refuses an expired or unknown token, and a weak password', async () => {
    const user = await org.member('user');
    await call(t.app, 'POST', '/auth/request-password-reset', { body: { email: user.email } });
    const token = await vi.waitFor(() => linkToken(t.mails, user.email, '/reset-password'));

    const weak = await call(t.app, 'POST', '/auth/set-password', { body: { token, password: 'weakpass' } });
    expect(weak.status).toBe(422);
    expect(weak.body.detail).toMatch(/uppercase/);

    await expire(token);
    const expired = await call(t.app, 'POST', '/auth/set-password', {
      body: { token, password: NEW_PASSWORD },
    });
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('reset_token_expired');

    const unknown = await call(t.app, 'POST', '/auth/set-password', {
      body: { token: 'typo', password: NEW_PASSWORD },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('reset_token_invalid');
  });

  it('a token is valid one hour', async () => {
    const user = await org.member('user');
    await call(t.app, 'POST', '/auth/request-password-reset', { body: { email: user.email } });
    const token = await vi.waitFor(() => linkToken(t.mails, user.email, '/reset-password'));
    const [row] = await t.app.db
      .select()
      .from(oneTimeTokens)
      .where(eq(oneTimeTokens.tokenHash, hashToken(token)));
    const ttl = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000 + 1000);
  });
});

describe('onboarding', () => {
  async function invite() {
    const email = uniqueEmail('invitee');
    const res = await call(t.app, 'POST', '/users', {
      token: org.admin.token,
      body: { email, user_role_id: 'creator', firstName: 'Ada' },
    });
    expect(res.status).toBe(201);
    const token = linkToken(t.mails, email, '/onboarding');
    expect(res.body.invitation_url).toMatch(new RegExp(`/onboarding/${token}$`));
    return { email, token, userId: res.body.user_id as string };
  }

  const complete = (token: string, extra: object = {}) =>
    call(t.app, 'POST', '/users/onboarding/complete', {
      body: {
        token,
        password: NEW_PASSWORD,
        firstName: 'Ada',
        lastName: 'Lovelace',
        jobTitle: 'Engineer',
        accept_terms: true,
        ...extra,
      },
    });

  it('an invited user cannot log in until onboarding is complete, then can', async () => {
    const { email, token, userId } = await invite();
    const listed = await call(t.app, 'GET', `/users/${userId}`, { token: org.admin.token });
    expect(listed.body.user.status).toBe('invited');
    expect((await call(t.app, 'POST', '/token', { body: { email, password: NEW_PASSWORD } })).status).toBe(
      401,
    );

    const info = await call(t.app, 'GET', `/users/onboarding/${token}`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ status: 'valid', email, firstName: 'Ada' });

    const done = await complete(token);
    expect(done.status).toBe(200);
    const me = await call(t.app, 'GET', '/users/details/me', { token: done.body.access_token });
    expect(me.body.user).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      jobTitle: 'Engineer',
      status: 'active',
    });
    await login(t.app, email, NEW_PASSWORD);
  });

  it('tells valid, used, expired and mistyped links apart', async () => {
    const used = await invite();
    expect((await complete(used.token)).status).toBe(200);
    const usedInfo = await call(t.app, 'GET', `/users/onboarding/${used.token}`);
    expect([usedInfo.status, usedInfo.body.code]).toEqual([409, 'onboarding_token_used']);
    expect((await complete(used.token)).status).toBe(409);

    const expired = await invite();
    await expire(expired.token);
    const expiredInfo = await call(t.app, 'GET', `/users/onboarding/${expired.token}`);
    expect([expiredInfo.status, expiredInfo.body.code]).toEqual([410, 'onboarding_token_expired']);

    const typo = await call(t.app, 'GET', `/users/onboarding/${expired.token.slice(0, -2)}xx`);
    expect([typo.status, typo.body.code]).toEqual([404, 'onboarding_token_invalid']);
  });

  it('requires accepting the terms and a strong password', async () => {
    const { token } = await invite();
    const noTerms = await complete(token, { accept_terms: false });
    expect(noTerms.status).toBe(422);
    expect(noTerms.body.detail).toMatch(/Terms of Service/);
    const weak = await complete(token, { password: 'short' });
    expect(weak.status).toBe(422);
    const noName = await complete(token, { firstName: '  ' });
    expect(noName.status).toBe(422);
    expect(noName.body.detail).toMatch(/This field is required/);
    // Nothing was consumed by the refused attempts.
    expect((await call(t.app, 'GET', `/users/onboarding/${token}`)).status).toBe(200);
  });

  it('a re-sent invitation replaces the previous link', async () => {
    const { token, userId } = await invite();
    const again = await call(t.app, 'POST', `/users/${userId}/invitation`, { token: org.admin.token });
    expect(again.status).toBe(200);
    expect((await call(t.app, 'GET', `/users/onboarding/${token}`)).status).toBe(410);
    const fresh = again.body.invitation_url.split('/onboarding/')[1];
    expect((await call(t.app, 'GET', `/users/onboarding/${fresh}`)).status).toBe(200);
  });
});

describe('rate limits', () => {
  it('wrong passwords lock the account from that address only; the user elsewhere still logs in', async () => {
    const limited = await startTestApp({ LOGIN_RATE_PER_ACCOUNT_PER_15_MINUTES: '10' });
    try {
      const user = await createOrg(limited.app);
      const attacker = '10.9.0.1';
      for (let i = 0; i < 10; i++) {
        const res = await call(limited.app, 'POST', '/token', {
          body: { email: user.admin.email, password: 'Wrong-pass-1' },
          ip: attacker,
        });
        expect(res.status).toBe(401);
      }
      // Locked from the attacker's address, even with the right password...
      const blocked = await call(limited.app, 'POST', '/token', {
        body: { email: user.admin.email, password: PASSWORD },
        ip: attacker,
      });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.body.code).toBe('rate_limited');
      // ...also when the email is typed in another case...
      const otherCase = await call(limited.app, 'POST', '/token', {
        body: { email: user.admin.email.toUpperCase(), password: PASSWORD },
        ip: attacker,
      });
      expect(otherCase.status).toBe(429);
      // ...but not from the user's own address.
      const own = await call(limited.app, 'POST', '/token', {
        body: { email: user.admin.email, password: PASSWORD },
        ip: '10.9.0.99',
      });
      expect(own.status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('distributed guessing meets a per-account ceiling, which spares addresses the user logged in from', async () => {
    // Per account and address: 2; per account from unknown addresses together: 2 x 10 = 20.
    const limited = await startTestApp({ LOGIN_RATE_PER_ACCOUNT_PER_15_MINUTES: '2' });
    try {
      const user = await createOrg(limited.app);
      const home = '10.7.0.200';
      const own = () =>
        call(limited.app, 'POST', '/token', {
          body: { email: user.admin.email, password: PASSWORD },
          ip: home,
        });
      expect((await own()).status).toBe(200);
      for (let i = 0; i < 20; i++) {
        const res = await call(limited.app, 'POST', '/token', {
          body: { email: user.admin.email, password: 'Wrong-pass-1' },
          ip: `10.7.1.${i + 1}`,
        });
        expect(res.status).toBe(401);
      }
      const stranger = await call(limited.app, 'POST', '/token', {
        body: { email: user.admin.email, password: PASSWORD },
        ip: '10.7.2.1',
      });
      expect(stranger.status).toBe(429);
      expect(stranger.body.code).toBe('rate_limited');
      expect((await own()).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('login is limited per client address', async () => {
    const limited = await startTestApp({ LOGIN_RATE_PER_IP_PER_MINUTE: '2' });
    const ip = `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const res = await call(limited.app, 'POST', '/token', {
          body: { email: uniqueEmail(), password: 'Wrong-pass-1' },
          ip,
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });

  it('password reset is limited per account', async () => {
    const limited = await startTestApp({ RESET_RATE_PER_ACCOUNT_PER_HOUR: '2' });
    try {
      const email = uniqueEmail();
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push(
          (await call(limited.app, 'POST', '/auth/request-password-reset', { body: { email } })).status,
        );
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
