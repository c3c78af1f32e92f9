import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, startTestApp, type Org, type TestApp } from './helpers';

let t: TestApp;
let org: Org;

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
});
afterAll(() => t.close());

describe('validation errors, field by field', () => {
  it('name the field and what is wrong with it, in plain words and as codes', async () => {
    const res = await call(t.app, 'POST', '/token', { body: { email: 'not-an-email', password: 'x' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors).toEqual([
      {
        in: 'body',
        field: 'email',
        code: 'invalid_format',
        params: { format: 'email' },
        message: 'must be a valid email address',
      },
    ]);
    expect(res.body.detail).toBe('Please check the request: email must be a valid email address.');
  });

  it('say missing, unknown, too long and not one of the choices', async () => {
    const res = await call(t.app, 'POST', '/users', {
      token: org.admin.token,
      body: { user_role_id: 'superuser', lastName: 'x'.repeat(101), nickname: 'me' },
    });
    expect(res.status).toBe(422);
    const byField = Object.fromEntries(
      (res.body.errors as { field: string; code: string; params: object }[]).map((p) => [p.field, p]),
    );
    expect(byField.nickname).toMatchObject({ code: 'unknown_field' });
    const detail = res.body.detail as string;
    expect(detail).toMatch(/^Please check the request: /);
    expect(detail).toMatch(/nickname is not a known field/);
    expect(detail).not.toMatch(/body\./);
    // zod's own sentences ("Invalid input: expected …", "Too big: …") never reach people.
    expect(detail).not.toMatch(/Invalid input|Too big|Too small|Unrecognized/);
  });

  it('give the missing and too-long fields their codes', async () => {
    const missing = await call(t.app, 'POST', '/workspaces', { token: org.admin.token, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      expect.objectContaining({ in: 'body', field: 'name', code: 'required', params: {} }),
    ]);
    expect(missing.body.detail).toBe('Please check the request: name is required.');

    const long = await call(t.app, 'POST', '/workspaces', {
      token: org.admin.token,
      body: { name: 'x'.repeat(5000) },
    });
    expect(long.status).toBe(422);
    expect(long.body.errors[0]).toMatchObject({ field: 'name', code: 'too_long' });
    expect(typeof long.body.errors[0].params.limit).toBe('number');
  });

  it('list the password rules a weak password breaks', async () => {
    const res = await call(t.app, 'POST', '/users', {
      token: org.admin.token,
      body: { email: 'weak@example.test', user_role_id: 'user', password: 'alllowercase' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        field: 'password',
        code: 'weak_password',
        params: { missing: ['uppercase', 'number', 'special'] },
      }),
    ]);
    expect(res.body.detail).toMatch(/uppercase letter, a number, a special character/);
  });

  it('name path parameters too', async () => {
    const res = await call(t.app, 'GET', '/users/not-a-uuid', { token: org.admin.token });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ in: 'params', field: 'id', code: 'invalid_format' });
  });
});
