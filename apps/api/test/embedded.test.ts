import { migrateDatabase, openDatabase, type Database } from '@atelier/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createOrganization } from '../src/services/organizations/organizations-service';
import { call, login, PASSWORD, testConfig } from './helpers';

/**
 * The embedded default (PGlite, in-process queue), whatever the environment says: CI sets
 * DATABASE_URL and REDIS_URL for the other suites, and this one keeps the embedded path tested.
 */
let database: Database;
let app: FastifyInstance;

beforeAll(async () => {
  database = await openDatabase({});
  await migrateDatabase(database);
  app = await buildApp({ config: testConfig({ DATABASE_URL: '', REDIS_URL: '' }), database, logger: false });
}, 60_000);
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('embedded mode', () => {
  it('runs the core journey on PGlite with no Redis', async () => {
    const health = await call(app, 'GET', '/health');
    expect(health.body).toMatchObject({ db: { kind: 'pglite' }, queue: { kind: 'in-process' } });

    await createOrganization(database.db, {
      name: 'Embedded',
      adminEmail: 'embedded@example.test',
      adminPassword: PASSWORD,
      monthlyCredits: 10,
    });
    const session = await login(app, 'embedded@example.test');
    const ws = await call(app, 'POST', '/workspaces', {
      token: session.access_token,
      body: { name: 'Local' },
    });
    expect(ws.status).toBe(201);
    const user = await call(app, 'POST', '/users', {
      token: session.access_token,
      body: { email: 'local-user@example.test', user_role_id: 'user', password: PASSWORD },
    });
    expect(user.status).toBe(201);
    const share = await call(app, 'POST', '/user_workspace_roles', {
      token: session.access_token,
      body: { user_id: user.body.user_id, workspace_id: ws.body.workspace_id, workspace_role_id: 'viewer' },
    });
    expect(share.status).toBe(201);
    const userSession = await login(app, 'local-user@example.test');
    const visible = await call(app, 'GET', '/workspaces', { token: userSession.access_token });
    expect(visible.body.workspaces.map((w: { id: string }) => w.id)).toEqual([ws.body.workspace_id]);

    const rotated = await call(app, 'POST', '/token/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(rotated.status).toBe(200);
    const replay = await call(app, 'POST', '/token/refresh', {
      body: { refresh_token: session.refresh_token },
    });
    expect(replay.status).toBe(401);
    const plan = await call(app, 'GET', '/credits/plan', { token: rotated.body.access_token });
    expect(plan.body.monthly_credits).toBe(10);
  });
});
