import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, startTestApp, type Org, type TestApp } from './helpers';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await startTestApp({ BODY_LIMIT_BYTES: '65536' });
  org = await createOrg(t.app);
});
afterAll(() => t.close());

const raw = (url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${org.admin.token}`, ...headers },
  });

describe('bad input', () => {
  it('malformed JSON answers 400 invalid_json and the server keeps going', async () => {
    for (const payload of ['{"name":', '{name: 1}', 'null,', '\u0000']) {
      const res = await raw('/workspaces', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'The request body is not valid JSON.', code: 'invalid_json' });
    }
    expect((await call(t.app, 'GET', '/health')).status).toBe(200);
  });

  it('wrong types, missing and unknown fields answer 422 with the field named', async () => {
    const cases: [string, object, RegExp][] = [
      ['/workspaces', { name: 42 }, /name/],
      ['/workspaces', {}, /name/],
      ['/workspaces', { name: 'ok', owner: 'me' }, /owner/],
      ['/token', { email: 'not-an-email', password: 'x' }, /email/],
      ['/token', { email: 'a@b.test' }, /password/],
      ['/users', { email: 'a@b.test', user_role_id: 'superuser' }, /user_role_id/],
    ];
    for (const [url, body, field] of cases) {
      const res = await call(t.app, 'POST', url, { token: org.admin.token, body });
      expect(res.status, `${url} ${JSON.stringify(body)}`).toBe(422);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.detail).toMatch(field);
    }
  });

  it('malformed ids in the path answer 422, not 500', async () => {
    const res = await call(t.app, 'GET', "/users/1'%20OR%201=1", { token: org.admin.token });
    expect(res.status).toBe(422);
  });

  it('a huge body answers 413 without being read', async () => {
    const res = await raw('/workspaces', JSON.stringify({ name: 'x'.repeat(70_000) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('body_too_large');
  });

  it('a body that is not JSON answers 415', async () => {
    const res = await raw('/workspaces', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
  });

  it('weak passwords are refused with what is missing', async () => {
    const cases: [string, RegExp][] = [
      ['Short1!', /at least 8 characters/],
      ['alllowercase1!', /uppercase/],
      ['ALLUPPERCASE1!', /lowercase/],
      ['NoDigitsHere!', /number/],
      ['NoSpecial123', /special character/],
    ];
    for (const [password, message] of cases) {
      const res = await call(t.app, 'POST', '/users', {
        token: org.admin.token,
        body: { email: 'weak@example.test', user_role_id: 'user', password },
      });
      expect(res.status, password).toBe(422);
      expect(res.body.detail).toMatch(message);
    }
  });

  it('unknown routes answer 404 in the error shape', async () => {
    const res = await call(t.app, 'GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('route_not_found');
  });
});
