import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, startTestApp, type Actor, type Org, type TestApp } from '../helpers';

/**
 * The spec's role table, written out independently of the routes' own declarations: for each route,
 * `public` or the application roles that may pass the role gate. The test fails when a route is
 * added without a line here, so every new route is a conscious decision.
 */
const A = ['admin'];
const AC = ['admin', 'creator'];
const ALL = ['admin', 'creator', 'user'];
const EXPECTED: Record<string, 'public' | string[]> = {
  'GET /health': 'public',
  'POST /token': 'public',
  'POST /token/refresh': 'public',
  'POST /token/revoke': 'public',
  'POST /auth/request-password-reset': 'public',
  'POST /auth/set-password': 'public',
  'GET /users/onboarding/:id': 'public',
  'POST /users/onboarding/complete': 'public',
  'GET /users/roles': ALL,
  'GET /users': AC,
  'GET /users/workspace/:id': ALL,
  'GET /users/details/me': ALL,
  'GET /users/:id': ALL,
  'POST /users': A,
  'POST /users/:id/invitation': A,
  'PUT /users/:id': A,
  'PATCH /users/profile/me': ALL,
  'DELETE /users/:id': A,
  'GET /workspace_roles': ALL,
  'GET /workspaces': ALL,
  'POST /workspaces': AC,
  'PUT /workspaces/:id': ALL,
  'DELETE /workspaces/:id': ALL,
  'POST /user_workspace_roles': AC,
  'PUT /user_workspace_roles/:user_id/:workspace_id': AC,
  'DELETE /user_workspace_roles/:user_id/:workspace_id': AC,
  'GET /credits/plan': ALL,
  'POST /analytics/page-views': ALL,
  'GET /providers/kinds': AC,
  'GET /providers': AC,
  'POST /providers': AC,
  'PUT /providers/:id': AC,
  'DELETE /providers/:id': AC,
  'POST /providers/:id/test': AC,
  'GET /providers/:id/remote-models': AC,
  'GET /models/types': ALL,
  'GET /models_with_partial_server': ALL,
  'GET /models_embeddings': ALL,
  'GET /models/:id': ALL,
  'POST /models': AC,
  'PUT /models/:id': AC,
  'DELETE /models/:id': AC,
  'POST /models/:id/invoke': AC,
  'GET /chatbots': AC,
  'GET /chatbots_for_user': ALL,
  'GET /chatbots/:id': ALL,
  'POST /chatbots': AC,
  'PUT /chatbots/:id': AC,
  'POST /chatbots/:id/publish': AC,
  'POST /chatbots/duplicate': AC,
  'DELETE /delete_chatbot/:id': AC,
  'GET /chatbots/:id/config': AC,
  'PUT /chatbots/:id/simple/config': AC,
  'PUT /chatbots/:id/chatflow/config': AC,
  'POST /chatbots/:id/runs': AC,
  'GET /chatbots/:id/runs': AC,
  'GET /templates': AC,
  'GET /runs/:id': ALL,
  'POST /runs/:id/cancel': ALL,
  'GET /runs/:id/events': ALL,
  'POST /chatbots/:id/users/:userId/grant': AC,
  'DELETE /chatbots/:id/users/:userId/revoke': AC,
  'GET /chatbots/:id/users': AC,
  'GET /chat-interface/chatbots/:id/input-fields': ALL,
  'GET /chat-interface/conversations': ALL,
  'GET /chat-interface/conversations/:id/history': ALL,
  'POST /chat-interface/conversations': ALL,
  'PUT /chat-interface/conversations/:id': ALL,
  'DELETE /chat-interface/conversations/:id': ALL,
  'POST /chat-interface/conversations/:id/simple/message': ALL,
  'POST /chat-interface/conversations/:id/chatflow/message': ALL,
  'POST /chat-interface/conversations/:id/workflow/message': ALL,
};

let t: TestApp;
let org: Org;
let actors: Record<string, Actor>;
const FAKE_ID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
  actors = { admin: org.admin, creator: await org.member('creator'), user: await org.member('user') };
});
afterAll(() => t.close());

const routes = () => t.app.routeCatalog.filter((r) => !r.url.startsWith('/docs'));
const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;
const concrete = (url: string) => url.replace(/:[a-zA-Z_]+/g, FAKE_ID);

describe('role matrix', () => {
  it('every registered route is in the expected matrix, and the other way round', () => {
    expect(routes().map(key).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it("each route's declared access matches the spec's table", () => {
    for (const route of routes()) {
      const expected = EXPECTED[key(route)];
      const declared = route.access === 'public' ? 'public' : [...route.access.roles].sort();
      expect(declared, key(route)).toEqual(expected === 'public' ? 'public' : [...(expected ?? [])].sort());
    }
  });

  it('without a token every non-public route answers 401', async () => {
    for (const route of routes()) {
      if (EXPECTED[key(route)] === 'public') continue;
      const res = await call(t.app, route.method as 'GET', concrete(route.url), {
        body: ['GET', 'DELETE'].includes(route.method) ? undefined : {},
      });
      expect(res.status, key(route)).toBe(401);
      expect(res.body.code, key(route)).toMatch(/unauthenticated|invalid_token/);
    }
  });

  it('each role is let through or answered 403 exactly as the table says', async () => {
    for (const route of routes()) {
      const expected = EXPECTED[key(route)];
      if (expected === 'public' || !expected) continue;
      for (const [role, actor] of Object.entries(actors)) {
        const res = await call(t.app, route.method as 'GET', concrete(route.url), {
          token: actor.token,
          body: ['GET', 'DELETE'].includes(route.method) ? undefined : {},
        });
        const gateSaysNo = res.status === 403 && res.body.detail.startsWith('Access Forbidden');
        expect(gateSaysNo, `${role} ${key(route)} -> ${res.status} ${JSON.stringify(res.body)}`).toBe(
          !expected.includes(role),
        );
      }
    }
  });
});
