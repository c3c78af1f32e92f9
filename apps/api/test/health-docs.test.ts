import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('health and docs', () => {
  it('GET /health reports the database and the queue', async () => {
    // The queue's figures have a 2 s budget; a machine loaded by every other suite may miss it once
    // (then `runs` is left out and the status is `degraded`): ask again.
    let res = await call(t.app, 'GET', '/health');
    for (let i = 0; i < 5 && !res.body.runs; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      res = await call(t.app, 'GET', '/health');
    }
    expect(res.status).toBe(200);
    expect(res.body.runs).toBeDefined();
    expect(res.body).toMatchObject({
      db: { status: 'ok', kind: process.env.DATABASE_URL ? 'postgres' : 'pglite' },
      queue: { status: 'ok', kind: process.env.REDIS_URL ? 'redis' : 'in-process' },
    });
    // On the shared test database other suites may leave runs waiting with no worker alive: that, and
    // only that, is `degraded`.
    if (res.body.status !== 'ok') {
      expect(res.body.status).toBe('degraded');
      expect(res.body.runs.queued).toBeGreaterThan(0);
      expect(res.body.runs.live_workers).toBe(0);
    }
  });

  it('GET /docs/json documents every route with its schemas', async () => {
    const res = await call(t.app, 'GET', '/docs/json');
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    for (const route of t.app.routeCatalog.filter((r) => !r.url.startsWith('/docs'))) {
      const openapiPath = route.url.replace(/:([a-zA-Z_]+)/g, '{$1}');
      expect(paths, route.url).toContain(openapiPath);
      expect(
        res.body.paths[openapiPath][route.method.toLowerCase()],
        `${route.method} ${route.url}`,
      ).toBeDefined();
    }
    const login = res.body.paths['/token'].post;
    expect(login.requestBody.content['application/json'].schema.properties).toHaveProperty('email');
    expect(login.responses['200'].content['application/json'].schema.properties).toHaveProperty(
      'refresh_token',
    );
  });

  it('documents the public API under its own tag, with operation ids, servers and event streams', async () => {
    const doc = (await call(t.app, 'GET', '/docs/json')).body;
    expect(doc.servers).toEqual([{ url: 'http://localhost:5001', description: 'This Atelier API' }]);
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toContain('public-api');
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const publicOps = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([, methods]) => Object.values(methods));
    expect(publicOps).toHaveLength(9);
    for (const op of publicOps) {
      expect(op.tags).toEqual(['public-api']);
      expect(op.operationId).toMatch(/^[a-zA-Z]+$/);
      expect(op.security).toEqual([{ apiKey: [] }]);
    }
    const completions = doc.paths['/v1/chat/completions'].post;
    expect(Object.keys(completions.responses['200'].content)).toEqual([
      'application/json',
      'text/event-stream',
    ]);
    expect(completions.responses['200'].content['application/json'].schema.properties).toHaveProperty(
      'choices',
    );
    expect(completions.responses['401'].content['application/json'].schema.properties).toHaveProperty(
      'error',
    );
    const events = doc.paths['/v1/runs/{id}/events'].get;
    expect(Object.keys(events.responses['200'].content)).toEqual(['text/event-stream']);
  });

  it('GET /docs serves the interactive viewer', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/html/);
  });

  it('CORS allows the web origin and not others', async () => {
    const ok = await t.app.inject({
      method: 'OPTIONS',
      url: '/workspaces',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' },
    });
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    const other = await t.app.inject({
      method: 'OPTIONS',
      url: '/workspaces',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('page views', () => {
  it('records a named page view for the caller, and validates it', async () => {
    const { createOrg } = await import('./helpers');
    const { pageViews } = await import('@atelier/db');
    const { eq } = await import('drizzle-orm');
    const org = await createOrg(t.app);
    const res = await call(t.app, 'POST', '/analytics/page-views', {
      token: org.admin.token,
      body: { name: 'Forbidden Page', path: '/forbidden' },
    });
    expect(res.status).toBe(204);
    const rows = await t.app.db.select().from(pageViews).where(eq(pageViews.organizationId, org.id));
    expect(rows.map((r) => [r.name, r.path, r.userId])).toEqual([
      ['Forbidden Page', '/forbidden', org.admin.id],
    ]);
    const bad = await call(t.app, 'POST', '/analytics/page-views', {
      token: org.admin.token,
      body: { name: '' },
    });
    expect(bad.status).toBe(422);
  });
});
