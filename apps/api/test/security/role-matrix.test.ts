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
/** `api_key`: the public API, reached with a chatbot's API key and never with a user's token. */
const KEY = 'api_key';
/** `embed`: the embeddable chat, reached by the public embed token in the route's own path. */
const EMBED = 'embed';
const EXPECTED: Record<string, 'public' | typeof KEY | typeof EMBED | string[]> = {
  'GET /health': 'public',
  'GET /metrics': 'public',
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
  'GET /credits/usage': ALL,
  'POST /analytics/page-views': ALL,
  'GET /analytics/overview': ALL,
  'GET /analytics/performance': ALL,
  'GET /analytics/engagement': ALL,
  'GET /analytics/logs': ALL,
  'GET /analytics/logs/filters': ALL,
  'GET /analytics/logs/export': ALL,
  'GET /analytics/logs/:id': ALL,
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
  'PUT /chat-interface/conversations/:id/messages/:messageId/feedback': ALL,
  'POST /chat-interface/conversations/:id/simple/message': ALL,
  'POST /chat-interface/conversations/:id/chatflow/message': ALL,
  'POST /chat-interface/conversations/:id/workflow/message': ALL,
  'GET /supported_connectors': AC,
  'GET /connectors': AC,
  'GET /connectors/:id': AC,
  'POST /connectors': AC,
  'PUT /connectors/:id': AC,
  'DELETE /connectors/:id': AC,
  'POST /connectors/:id/test': AC,
  'GET /connectors/:id/collections': AC,
  'GET /connectors/:id/collections/:name/metadata': AC,
  'GET /connectors/:id/collections/:name/preview': AC,
  'GET /rag_collections_all': AC,
  'GET /rag_collections_with_partial_server': AC,
  'GET /rag_collections/:id': AC,
  'POST /rag_collections': AC,
  'PUT /rag_collections/:id': AC,
  'DELETE /rag_collections/:id': AC,
  'POST /rag_collections/:id/query': AC,
  'POST /rag_collections/:id/documents': AC,
  'POST /rag_collections/:id/documents/web': AC,
  'GET /rag_collections/:id/documents': AC,
  'GET /rag_collections/:id/documents/:documentId': AC,
  'GET /rag_collections/:id/documents/:documentId/chunks': AC,
  'DELETE /rag_collections/:id/documents/:documentId': AC,
  'PATCH /rag_collections/:id/documents/:documentId': AC,
  'PATCH /rag_collections/:id/documents': AC,
  'GET /rag_collections/:id/metadata_fields': AC,
  'GET /tools': AC,
  'GET /tools/types': AC,
  'GET /tools/:id': AC,
  'POST /tools': AC,
  'PUT /tools/:id': AC,
  'DELETE /tools/:id': AC,
  'GET /chatbots/:id/api_keys': AC,
  'POST /chatbots/:id/api_keys': AC,
  'DELETE /chatbots/:id/api_keys/:key_id': AC,
  'GET /v1/models': KEY,
  'POST /v1/chat/completions': KEY,
  'POST /v1/chat-messages': KEY,
  'POST /v1/workflows/runs': KEY,
  'GET /v1/runs/:id': KEY,
  'GET /v1/runs/:id/events': KEY,
  'POST /v1/runs/:id/cancel': KEY,
  'GET /v1/conversations': KEY,
  'GET /v1/conversations/:id/messages': KEY,
  'GET /chatbots/:id/embed': AC,
  'PUT /chatbots/:id/embed': AC,
  'POST /chatbots/:id/embed/token': AC,
  'GET /embed/:token/config': EMBED,
  'POST /embed/:token/messages': EMBED,
  'GET /embed/:token/conversations': EMBED,
  'GET /embed/:token/conversations/:id/messages': EMBED,
  'GET /embed.js': 'public',
  'GET /embed-assets/:file': 'public',
  'GET /embed/:token': 'public',
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
      const declared = typeof route.access === 'string' ? route.access : [...route.access.roles].sort();
      expect(declared, key(route)).toEqual(
        typeof expected === 'string' ? expected : [...(expected ?? [])].sort(),
      );
    }
  });

  it('without a token every non-public route answers 401', async () => {
    for (const route of routes()) {
      if (EXPECTED[key(route)] === 'public' || EXPECTED[key(route)] === EMBED) continue;
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
      if (typeof expected === 'string' || !expected) continue;
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

  it("no user's token reaches the public API, whatever the role: only an API key does", async () => {
    for (const route of routes().filter((r) => EXPECTED[key(r)] === KEY)) {
      for (const [role, actor] of Object.entries(actors)) {
        const res = await call(t.app, route.method as 'GET', concrete(route.url), {
          token: actor.token,
          body: ['GET', 'DELETE'].includes(route.method) ? undefined : {},
        });
        expect(res.status, `${role} ${key(route)}`).toBe(401);
        expect(res.body.code, `${role} ${key(route)}`).toBe('invalid_api_key');
      }
    }
  });

  it('the embed routes answer only to an embed token in their path: no user token or API key reaches them', async () => {
    const embedRoutes = routes().filter((r) => EXPECTED[key(r)] === EMBED);
    expect(embedRoutes.length).toBe(4);
    const made = `emb_${'A'.repeat(43)}`;
    for (const route of embedRoutes) {
      const url = route.url.replace(':token', made).replace(/:[a-zA-Z_]+/g, FAKE_ID) + '?user=browser-walker';
      for (const [role, actor] of [['anonymous', undefined], ...Object.entries(actors)] as const) {
        const res = await call(t.app, route.method as 'GET', url, {
          token: actor?.token,
          body: route.method === 'GET' ? undefined : { message: 'hi' },
        });
        expect(res.status, `${key(route)} ${role}`).toBe(404);
        expect(res.body.code).toBe('embed_not_found');
      }
    }
  });
});
