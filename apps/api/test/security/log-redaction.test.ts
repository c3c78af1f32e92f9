import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createOrg, linkToken, startTestApp, uniqueEmail, type Org, type TestApp } from '../helpers';

// Everything the app logs, one parsed JSON line each.
const lines: { msg?: string; req?: { method: string; url: string } }[] = [];
const raw: string[] = [];
let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await startTestApp(
    {},
    {
      logger: {
        level: 'info',
        stream: {
          write(line: string) {
            raw.push(line);
            lines.push(JSON.parse(line) as (typeof lines)[number]);
          },
        },
      },
    },
  );
  org = await createOrg(t.app);
});
afterAll(() => t.close());

const loggedUrls = (method: string) =>
  lines.filter((l) => l.msg === 'incoming request' && l.req?.method === method).map((l) => l.req!.url);

describe('the request log', () => {
  it('replaces the invitation token of GET /users/onboarding/{token} and still logs the route', async () => {
    const email = uniqueEmail('invitee');
    await call(t.app, 'POST', '/users', { token: org.admin.token, body: { email, user_role_id: 'user' } });
    const token = linkToken(t.mails, email, '/onboarding');

    const res = await call(t.app, 'GET', `/users/onboarding/${token}`);
    expect(res.status).toBe(200);
    await vi.waitFor(() => expect(loggedUrls('GET')).toContain('/users/onboarding/[redacted]'));
    expect(raw.join('\n')).not.toContain(token);
  });

  it('replaces token query parameters, and keeps the onboarding completion route readable', async () => {
    const secret = 'a-query-secret-0123456789';
    await call(t.app, 'GET', `/users/onboarding/whatever?token=${secret}&x=1`);
    const done = await call(t.app, 'POST', '/users/onboarding/complete', {
      body: { token: 'body-secret-abc', password: 'x', firstName: 'A', lastName: 'B', accept_terms: true },
    });
    expect(done.status).toBe(422);
    await vi.waitFor(() => {
      expect(loggedUrls('GET')).toContain('/users/onboarding/[redacted]?token=[redacted]&x=1');
      expect(loggedUrls('POST')).toContain('/users/onboarding/complete');
    });
    expect(raw.join('\n')).not.toContain(secret);
    expect(raw.join('\n')).not.toContain('body-secret-abc');
  });
});
