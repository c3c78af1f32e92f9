import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '@atelier/db';
import { isolatedTestDatabase, sharedTestDatabase } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { adminNameOf, bootstrapFirstAdmin } from '../src/services/organizations/organizations-service';
import { call, testConfig } from './helpers';

let database: Database;

beforeAll(async () => {
  database = await isolatedTestDatabase();
}, 60_000);
afterAll(() => database.close());

describe("the first admin's name", () => {
  it('comes from ADMIN_NAME, else from the email, and fits the profile form', () => {
    expect(adminNameOf('x@y.test', 'Jane  Ann Doe ')).toEqual({ firstName: 'Jane', lastName: 'Ann Doe' });
    expect(adminNameOf('jane.doe@acme.test')).toEqual({ firstName: 'Jane', lastName: 'Doe' });
    expect(adminNameOf('admin@atelier.local')).toEqual({ firstName: 'Admin', lastName: '' });
    expect(adminNameOf('42@acme.test')).toEqual({ firstName: 'Admin', lastName: '' });
    expect(adminNameOf('x@y.test', 'A'.repeat(300)).firstName).toHaveLength(100);
  });
});

describe('first start', () => {
  it('creates an organization and an admin with a generated strong password, once', async () => {
    const first = await bootstrapFirstAdmin(database.db, {
      name: 'Acme',
      adminEmail: undefined,
      adminPassword: undefined,
      monthlyCredits: 500,
    });
    expect(first).toMatchObject({ adminEmail: 'admin@atelier.local', generated: true });
    expect(first!.password.length).toBeGreaterThanOrEqual(24);
    const again = await bootstrapFirstAdmin(database.db, {
      name: 'Acme',
      adminEmail: 'x@y.test',
      adminPassword: undefined,
      monthlyCredits: 500,
    });
    expect(again).toBeNull();

    const app = await buildApp({ config: testConfig(), database, logger: false });
    try {
      const login = await call(app, 'POST', '/token', {
        body: { email: 'admin@atelier.local', password: first!.password },
      });
      expect(login.status).toBe(200);
      const me = await call(app, 'GET', '/users/details/me', { token: login.body.access_token });
      expect(me.body.user).toMatchObject({ user_role_id: 'admin', firstName: 'Admin', lastName: '' });
      // The seeded admin saves their profile as it is (what the profile form sends).
      const { firstName, lastName, jobTitle } = me.body.user;
      const saved = await call(app, 'PATCH', '/users/profile/me', {
        token: login.body.access_token,
        body: { firstName, lastName, jobTitle, language_preference: 'fr' },
      });
      expect(saved.status).toBe(200);
      const plan = await call(app, 'GET', '/credits/plan', { token: login.body.access_token });
      expect(plan.body.monthly_credits).toBe(500);
    } finally {
      await app.close();
    }
  });
});

describe('the CLI', () => {
  it('org:create makes a further organization whose admin can log in', async () => {
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    const dataDir = mkdtempSync(join(tmpdir(), 'atelier-cli-'));
    const email = `cli-${Date.now()}@example.test`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/cli/index.ts', 'org:create', '--name', 'Second org', '--admin-email', email],
      { cwd, env: { ...process.env, NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(40), DATA_DIR: dataDir } },
    );
    expect(stdout).toMatch(/organization: [0-9a-f-]{36}/);
    const password = stdout.match(/password: (\S+)/)?.[1];
    expect(password).toBeTruthy();

    // The command wrote to DATABASE_URL when set, else to the PGlite under its DATA_DIR.
    const target = process.env.DATABASE_URL
      ? await sharedTestDatabase()
      : await openDatabase({ dataDir: join(dataDir, 'pglite') });
    const app = await buildApp({ config: testConfig(), database: target, logger: false });
    try {
      const login = await call(app, 'POST', '/token', { body: { email, password } });
      expect(login.status).toBe(200);
    } finally {
      await app.close();
      if (!process.env.DATABASE_URL) await target.close();
    }
  }, 60_000);
});
