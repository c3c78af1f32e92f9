import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoFlow, flowBot } from '../flows';
import { call, createOrg, fakeModel, startTestApp, type Actor, type Org, type TestApp } from '../helpers';

/** Workspace roles decide who builds and spends; unknown and unreachable ids look alike. */
let t: TestApp;
let fake: FakeProvider;
let org: Org;
let workspace: string;
let viewer: Actor;
let editor: Actor;
let modelId: string;
let flowId: string;

const addMember = (actor: Actor, role: string) =>
  call(t.app, 'POST', '/user_workspace_roles', {
    token: org.admin.token,
    body: { user_id: actor.id, workspace_id: workspace, workspace_role_id: role },
  });

beforeAll(async () => {
  t = await startTestApp();
  fake = await startFakeProvider();
  org = await createOrg(t.app);
  workspace = await org.workspace(org.admin, 'Built here');
  viewer = await org.member('creator', 'viewer');
  editor = await org.member('creator', 'editor');
  expect((await addMember(viewer, 'viewer')).status).toBe(201);
  expect((await addMember(editor, 'editor')).status).toBe(201);
  ({ modelId } = await fakeModel(t.app, org, workspace, fake.url, { type: 'text-embeddings' }));
  flowId = await flowBot(t.app, org, workspace, 'workflow', echoFlow());
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('workspace roles decide who builds and runs drafts', () => {
  it('a creator who only views the workspace can read its flow but not run it, draft or saved', async () => {
    const config = await call(t.app, 'GET', `/chatbots/${flowId}/config`, { token: viewer.token });
    expect(config.status).toBe(200);
    for (const body of [
      { inputs: { query: 'hi' } },
      { inputs: { query: 'hi' }, configuration: echoFlow() },
    ]) {
      const run = await call(t.app, 'POST', `/chatbots/${flowId}/runs`, { token: viewer.token, body });
      expect(run.status).toBe(403);
      expect(run.body).toEqual({
        code: 'forbidden',
        detail: 'Only editors and administrators of this workspace can run its flows.',
      });
    }
    const runs = await call(t.app, 'GET', `/chatbots/${flowId}/runs`, { token: viewer.token });
    expect([runs.status, runs.body.runs]).toEqual([200, []]);
  });

  it('an editor may run it', async () => {
    const run = await call(t.app, 'POST', `/chatbots/${flowId}/runs`, {
      token: editor.token,
      body: { inputs: { query: 'hi' }, configuration: echoFlow() },
    });
    expect(run.status).toBe(201);
  });

  it('a viewer cannot invoke the workspace models; an editor can', async () => {
    const body = { input: 'hello' };
    const refused = await call(t.app, 'POST', `/models/${modelId}/invoke`, { token: viewer.token, body });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toBe(
      'Only editors and administrators of this workspace can call its models directly.',
    );
    const allowed = await call(t.app, 'POST', `/models/${modelId}/invoke`, { token: editor.token, body });
    expect(allowed.status).toBe(200);
  });
});

describe('ids a client chooses', () => {
  it('input fields of a chatbot without access answer like an unknown id', async () => {
    const user = await org.member('user');
    const noAccess = await call(t.app, 'GET', `/chat-interface/chatbots/${flowId}/input-fields`, {
      token: user.token,
    });
    const unknown = await call(
      t.app,
      'GET',
      '/chat-interface/chatbots/00000000-0000-4000-8000-000000000000/input-fields',
      { token: user.token },
    );
    expect(noAccess.status).toBe(404);
    expect(noAccess.body).toEqual(unknown.body);
    const conversation = await call(t.app, 'POST', '/chat-interface/conversations', {
      token: user.token,
      body: { title: 'Probe', chatbot_id: flowId },
    });
    expect([conversation.status, conversation.body]).toEqual([404, unknown.body]);
    await call(t.app, 'POST', `/chatbots/${flowId}/users/${user.id}/grant`, { token: org.admin.token });
    const granted = await call(t.app, 'GET', `/chat-interface/chatbots/${flowId}/input-fields`, {
      token: user.token,
    });
    expect(granted.status).toBe(200);
  });
});

describe('the OpenAPI document says what the API answers', () => {
  it('nullable enums admit null, streams are text/event-stream, 413/414 are documented', async () => {
    const doc = (await call(t.app, 'GET', '/docs/json')).body;
    const workspaceItem =
      doc.paths['/workspaces'].get.responses['200'].content['application/json'].schema.properties.workspaces
        .items;
    expect(workspaceItem.properties.workspace_role_id.enum).toContain(null);
    for (const [path, method] of [
      ['/chat-interface/conversations/{id}/simple/message', 'post'],
      ['/chat-interface/conversations/{id}/chatflow/message', 'post'],
      ['/chat-interface/conversations/{id}/workflow/message', 'post'],
      ['/runs/{id}/events', 'get'],
      ['/chatbots/{id}/runs', 'post'],
    ] as const) {
      const responses = doc.paths[path][method].responses;
      expect(Object.keys(responses['200'].content), path).toContain('text/event-stream');
      expect(responses['414'], path).toBeDefined();
    }
    expect(doc.paths['/workspaces'].post.responses['413']).toBeDefined();
    expect(doc.paths['/workspaces'].get.responses['413']).toBeUndefined();
  });

  it('an over-long path parameter answers 414 in the usual shape', async () => {
    const res = await call(t.app, 'GET', `/users/${'a'.repeat(2000)}`, { token: org.admin.token });
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ code: 'uri_too_long', detail: 'A part of the address is too long.' });
  });
});
