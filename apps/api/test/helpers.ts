import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedTestDatabase } from '@atelier/testkit';
import type { AppRoleId } from '@atelier/schemas';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig, type AppConfig } from '../src/env';
import type { Mail } from '../src/services/mail/mailer';
import { createOrganization } from '../src/services/organizations/organizations-service';

export const PASSWORD = 'Correct-Horse-9';

/** One data directory per test process (uploads land there), never the repository's. */
let testDataDir: string | undefined;

export function testConfig(env: Record<string, string> = {}): AppConfig {
  testDataDir ??= mkdtempSync(join(tmpdir(), 'atelier-api-test-'));
  return loadConfig({
    DATA_DIR: testDataDir,
    NODE_ENV: 'test',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    REDIS_URL: process.env.REDIS_URL ?? '',
    // Each test app its own queue and keys: test files run in parallel on one Redis.
    QUEUE_PREFIX: `atelier-test-${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: 'silent',
    // Tests share 127.0.0.1; the rate-limit tests set their own low limits and addresses.
    LOGIN_RATE_PER_IP_PER_MINUTE: '100000',
    RESET_RATE_PER_IP_PER_HOUR: '100000',
    RESET_RATE_PER_ACCOUNT_PER_HOUR: '1000',
    // The per-user limits of costly routes: security/limits.test.ts sets its own low ones.
    CHAT_MESSAGES_PER_USER_PER_MINUTE: '100000',
    RUNS_PER_USER_PER_MINUTE: '100000',
    MODEL_CALLS_PER_USER_PER_MINUTE: '100000',
    PROVIDER_TESTS_PER_USER_PER_MINUTE: '100000',
    PAGE_VIEWS_PER_USER_PER_MINUTE: '100000',
    API_KEY_REQUESTS_PER_MINUTE: '100000',
    LOG_EXPORTS_PER_USER_PER_MINUTE: '100000',
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  mails: Mail[];
  close(): Promise<void>;
}

export async function startTestApp(
  env: Record<string, string> = {},
  options: { logger?: object } = {},
): Promise<TestApp> {
  const database = await sharedTestDatabase();
  const mails: Mail[] = [];
  const app = await buildApp({
    config: testConfig(env),
    database,
    logger: options.logger ?? false,
    mailer: { send: async (mail) => void mails.push(mail) },
  });
  await app.ready();
  return { app, mails, close: () => app.close() };
}

export const uniqueEmail = (label = 'user') => `${label}-${randomBytes(5).toString('hex')}@example.test`;

export interface Answer {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}

/** Calls the API through inject, as a client would; JSON in, JSON out. */
export async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; ip?: string } = {},
): Promise<Answer> {
  const res = await app.inject({
    method,
    url,
    ...(options.ip ? { remoteAddress: options.ip } : {}),
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
  });
  let body: unknown = null;
  if (res.body) {
    try {
      body = JSON.parse(res.body);
    } catch {
      body = res.body;
    }
  }
  return { status: res.statusCode, body, headers: res.headers };
}

export async function login(app: FastifyInstance, email: string, password = PASSWORD) {
  const res = await call(app, 'POST', '/token', { body: { email, password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { access_token: string; refresh_token: string };
}

export interface Actor {
  id: string;
  email: string;
  token: string;
}

export interface Org {
  id: string;
  admin: Actor;
  /** Creates a user of this organization with a password and logs them in. */
  member(role: AppRoleId, label?: string): Promise<Actor>;
  workspace(owner: Actor, name?: string): Promise<string>;
}

/** A fresh organization with a logged-in admin. */
export async function createOrg(app: FastifyInstance): Promise<Org> {
  const email = uniqueEmail('admin');
  const created = await createOrganization(app.db, {
    name: `Org ${email}`,
    adminEmail: email,
    adminPassword: PASSWORD,
    monthlyCredits: 1000,
  });
  const admin: Actor = { id: created.adminId, email, token: (await login(app, email)).access_token };
  return {
    id: created.organizationId,
    admin,
    async member(role, label = role) {
      const memberEmail = uniqueEmail(label);
      const res = await call(app, 'POST', '/users', {
        token: admin.token,
        body: { email: memberEmail, user_role_id: role, password: PASSWORD, firstName: label },
      });
      if (res.status !== 201)
        throw new Error(`create user failed: ${res.status} ${JSON.stringify(res.body)}`);
      return {
        id: res.body.user_id,
        email: memberEmail,
        token: (await login(app, memberEmail)).access_token,
      };
    },
    async workspace(owner, name = 'Workspace') {
      const res = await call(app, 'POST', '/workspaces', { token: owner.token, body: { name } });
      if (res.status !== 201)
        throw new Error(`create workspace failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.workspace_id as string;
    },
  };
}

/** The token part of a link mailed to `to`. */
export function linkToken(mails: Mail[], to: string, path: string): string {
  const mail = [...mails].reverse().find((m) => m.to === to.toLowerCase() && m.text.includes(path));
  const match = mail?.text.match(new RegExp(`${path}/([A-Za-z0-9_-]+)`));
  if (!match?.[1]) throw new Error(`no mail to ${to} with a ${path} link`);
  return match[1];
}

/** A provider on the fake OpenAI-compatible server in the workspace, and a model of it. */
export async function fakeModel(
  app: FastifyInstance,
  org: Org,
  workspaceId: string,
  fakeUrl: string,
  model: { name?: string; type?: string } = {},
): Promise<{ providerId: string; modelId: string }> {
  const provider = await call(app, 'POST', '/providers', {
    token: org.admin.token,
    body: {
      workspace_id: workspaceId,
      name: 'Fake',
      kind: 'openai_compatible',
      base_url: `${fakeUrl}/v1`,
      api_key: 'test-key',
    },
  });
  const providerId = provider.body.provider_id as string;
  const created = await call(app, 'POST', '/models', {
    token: org.admin.token,
    body: {
      workspace_id: workspaceId,
      provider_id: providerId,
      model_name: model.name ?? 'gpt-4o-mini',
      model_type: model.type ?? 'llm',
    },
  });
  return { providerId, modelId: created.body.model_id as string };
}
