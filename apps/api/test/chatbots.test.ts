import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, startTestApp, type Actor, type Org, type TestApp } from './helpers';

let t: TestApp;
let org: Org;
let ws: string;
let modelId: string;
let embeddingId: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
  ws = await org.workspace(org.admin, 'Studio');
  const provider = await call(t.app, 'POST', '/providers', {
    token: org.admin.token,
    body: { workspace_id: ws, name: 'P', kind: 'openai', api_key: 'sk-x' },
  });
  const add = async (model_name: string, model_type: string) =>
    (
      await call(t.app, 'POST', '/models', {
        token: org.admin.token,
        body: { workspace_id: ws, provider_id: provider.body.provider_id, model_name, model_type },
      })
    ).body.model_id as string;
  modelId = await add('gpt-4o-mini', 'llm');
  embeddingId = await add('text-embedding-3-small', 'text-embeddings');
});
afterAll(() => t.close());

const create = (token: string, body: object) =>
  call(t.app, 'POST', '/chatbots', { token, body: { workspace_id: ws, ...body } });

describe('chatbots', () => {
  it('create, list, get, update, duplicate, delete', async () => {
    const created = await create(org.admin.token, { name: 'Helper', description: 'Answers', type: 'simple' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const list = await call(t.app, 'GET', `/chatbots?workspace_id=${ws}`, { token: org.admin.token });
    expect(list.body.chatbots.map((c: { id: string }) => c.id)).toContain(id);
    const got = await call(t.app, 'GET', `/chatbots/${id}`, { token: org.admin.token });
    expect(got.body.chatbot).toMatchObject({
      name: 'Helper',
      description: 'Answers',
      type: 'simple',
      is_published: false,
      model_id: null,
      store_conversations: true,
      knowledge_collection_ids: [],
    });
    expect(
      (await call(t.app, 'PUT', `/chatbots/${id}`, { token: org.admin.token, body: { name: 'Helper 2' } }))
        .status,
    ).toBe(200);
    const copy = await call(t.app, 'POST', '/chatbots/duplicate', {
      token: org.admin.token,
      body: { chatbot_id: id },
    });
    expect(copy.status).toBe(201);
    const copied = await call(t.app, 'GET', `/chatbots/${copy.body.id}`, { token: org.admin.token });
    expect(copied.body.chatbot).toMatchObject({
      name: 'Copy of Helper 2',
      is_published: false,
      type: 'simple',
    });
    const named = await call(t.app, 'POST', '/chatbots/duplicate', {
      token: org.admin.token,
      body: { chatbot_id: id, new_name: 'Twin' },
    });
    expect(
      (await call(t.app, 'GET', `/chatbots/${named.body.id}`, { token: org.admin.token })).body.chatbot.name,
    ).toBe('Twin');
    expect(
      (await call(t.app, 'DELETE', `/delete_chatbot/${copy.body.id}`, { token: org.admin.token })).status,
    ).toBe(200);
    expect((await call(t.app, 'GET', `/chatbots/${copy.body.id}`, { token: org.admin.token })).status).toBe(
      404,
    );
  });

  it('simple config: model of the workspace and of a chat type; publish needs a model', async () => {
    const id = (await create(org.admin.token, { name: 'Configured', type: 'simple' })).body.id;
    const early = await call(t.app, 'POST', `/chatbots/${id}/publish`, { token: org.admin.token });
    expect([early.status, early.body.code]).toEqual([422, 'model_required']);
    const wrongType = await call(t.app, 'PUT', `/chatbots/${id}/simple/config`, {
      token: org.admin.token,
      body: { instruction: 'Be brief', model_id: embeddingId },
    });
    expect([wrongType.status, wrongType.body.code]).toEqual([422, 'model_type_mismatch']);
    const saved = await call(t.app, 'PUT', `/chatbots/${id}/simple/config`, {
      token: org.admin.token,
      body: {
        instruction: 'Be brief',
        model_id: modelId,
        store_conversations: false,
        knowledge_collection_ids: [],
      },
    });
    expect(saved.status).toBe(200);
    expect((await call(t.app, 'POST', `/chatbots/${id}/publish`, { token: org.admin.token })).status).toBe(
      200,
    );
    const got = await call(t.app, 'GET', `/chatbots/${id}`, { token: org.admin.token });
    expect(got.body.chatbot).toMatchObject({
      instruction: 'Be brief',
      model_id: modelId,
      store_conversations: false,
      is_published: true,
    });
    const config = await call(t.app, 'GET', `/chatbots/${id}/config`, { token: org.admin.token });
    expect(config.body.config).toEqual({
      chatbot_id: id,
      workspace_id: ws,
      is_published: true,
      has_unpublished_changes: false,
      configuration: { nodes: [], edges: [] },
    });
  });

  it('a published chatbot saved with changes has unpublished changes until it is published again', async () => {
    const id = (await create(org.admin.token, { name: 'Versioned', type: 'simple' })).body.id;
    const state = async () =>
      (await call(t.app, 'GET', `/chatbots/${id}`, { token: org.admin.token })).body.chatbot;
    const save = (instruction: string) =>
      call(t.app, 'PUT', `/chatbots/${id}/simple/config`, {
        token: org.admin.token,
        body: { instruction, model_id: modelId },
      });
    await save('One');
    expect(await state()).toMatchObject({ is_published: false, has_unpublished_changes: false });
    await call(t.app, 'POST', `/chatbots/${id}/publish`, { token: org.admin.token });
    expect(await state()).toMatchObject({ is_published: true, has_unpublished_changes: false });
    // The same settings again change nothing.
    await save('One');
    expect((await state()).has_unpublished_changes).toBe(false);
    await save('Two');
    expect(await state()).toMatchObject({ is_published: true, has_unpublished_changes: true });
    const listed = await call(t.app, 'GET', `/chatbots?workspace_id=${ws}`, { token: org.admin.token });
    expect(listed.body.chatbots.find((c: { id: string }) => c.id === id).has_unpublished_changes).toBe(true);
    await call(t.app, 'POST', `/chatbots/${id}/publish`, { token: org.admin.token });
    expect((await state()).has_unpublished_changes).toBe(false);

    // Flows too: a graph saved again unchanged (its keys in another order) is no new version.
    const flow = (await create(org.admin.token, { name: 'Flow', type: 'chatflow' })).body.id;
    const graph = {
      nodes: [
        { id: 'input_in01', type: 'input', data: { label: 'In', fields: [] }, position: { x: 0, y: 0 } },
        {
          id: 'output_ou01',
          type: 'output',
          data: { label: 'Out', fields: { response: '{{#input_in01.query#}}' } },
          position: { x: 200, y: 0 },
        },
      ],
      edges: [{ id: 'input_in01-output_ou01', source: 'input_in01', target: 'output_ou01' }],
    };
    const saveFlow = (configuration: unknown) =>
      call(t.app, 'PUT', `/chatbots/${flow}/chatflow/config`, {
        token: org.admin.token,
        body: { configuration },
      });
    expect((await saveFlow(graph)).status).toBe(200);
    expect((await call(t.app, 'POST', `/chatbots/${flow}/publish`, { token: org.admin.token })).status).toBe(
      200,
    );
    const reordered = {
      edges: graph.edges,
      nodes: graph.nodes.map(({ position, data, type, id }) => ({ position, data, type, id })),
    };
    await saveFlow(reordered);
    const config = async () =>
      (await call(t.app, 'GET', `/chatbots/${flow}/config`, { token: org.admin.token })).body.config;
    expect((await config()).has_unpublished_changes).toBe(false);
    await saveFlow({ ...graph, nodes: graph.nodes.map((n) => ({ ...n, position: { x: 5, y: 5 } })) });
    expect((await config()).has_unpublished_changes).toBe(true);
  });

  it('access: grant, list, revoke (idempotent); only organization users', async () => {
    const id = (await create(org.admin.token, { name: 'Shared', type: 'simple' })).body.id;
    const users = await Promise.all([org.member('user'), org.member('user'), org.member('user')]);
    const results = await Promise.all(
      users.map((u) =>
        call(t.app, 'POST', `/chatbots/${id}/users/${u.id}/grant`, { token: org.admin.token }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const granted = await call(t.app, 'GET', `/chatbots/${id}/users`, { token: org.admin.token });
    expect(granted.body.user_ids.sort()).toEqual(users.map((u) => u.id).sort());
    expect(
      (
        await call(t.app, 'DELETE', `/chatbots/${id}/users/${users[0]!.id}/revoke`, {
          token: org.admin.token,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(t.app, 'DELETE', `/chatbots/${id}/users/${users[0]!.id}/revoke`, {
          token: org.admin.token,
        })
      ).status,
    ).toBe(200);
    expect(
      (await call(t.app, 'GET', `/chatbots/${id}/users`, { token: org.admin.token })).body.user_ids,
    ).toHaveLength(2);
    const stranger = await createOrg(t.app);
    expect(
      (
        await call(t.app, 'POST', `/chatbots/${id}/users/${stranger.admin.id}/grant`, {
          token: org.admin.token,
        })
      ).status,
    ).toBe(404);
  });

  it('chatbots_for_user: admins all published, creators their workspaces, users what was granted', async () => {
    const published = (await create(org.admin.token, { name: 'Public bot', type: 'simple' })).body.id;
    await call(t.app, 'PUT', `/chatbots/${published}/simple/config`, {
      token: org.admin.token,
      body: { instruction: '', model_id: modelId },
    });
    await call(t.app, 'POST', `/chatbots/${published}/publish`, { token: org.admin.token });
    const draft = (await create(org.admin.token, { name: 'Draft bot', type: 'simple' })).body.id;
    const user: Actor = await org.member('user');
    const creator: Actor = await org.member('creator');
    const names = async (actor: Actor) =>
      (await call(t.app, 'GET', '/chatbots_for_user', { token: actor.token })).body.chatbots.map(
        (c: { id: string }) => c.id,
      );
    expect(await names(org.admin)).toContain(published);
    expect(await names(org.admin)).not.toContain(draft);
    expect(await names(user)).not.toContain(published);
    expect(await names(creator)).not.toContain(published);
    await call(t.app, 'POST', `/chatbots/${published}/users/${user.id}/grant`, { token: org.admin.token });
    await call(t.app, 'POST', '/user_workspace_roles', {
      token: org.admin.token,
      body: { user_id: creator.id, workspace_id: ws, workspace_role_id: 'viewer' },
    });
    expect(await names(user)).toEqual([published]);
    expect(await names(creator)).toContain(published);
    // A user reads a granted chatbot, but not another one, and cannot list or change any.
    expect((await call(t.app, 'GET', `/chatbots/${published}`, { token: user.token })).status).toBe(200);
    expect((await call(t.app, 'GET', `/chatbots/${draft}`, { token: user.token })).status).toBe(404);
    expect(
      (await call(t.app, 'PUT', `/chatbots/${published}`, { token: creator.token, body: { name: 'x' } }))
        .status,
    ).toBe(403);
  });

  it("another organization's chatbots answer 404 and stay untouched", async () => {
    const id = (await create(org.admin.token, { name: 'Mine', type: 'simple' })).body.id;
    const other = await createOrg(t.app);
    for (const [method, url, body] of [
      ['GET', `/chatbots/${id}`],
      ['PUT', `/chatbots/${id}`, { name: 'Stolen' }],
      ['POST', `/chatbots/${id}/publish`],
      ['POST', '/chatbots/duplicate', { chatbot_id: id }],
      ['DELETE', `/delete_chatbot/${id}`],
      ['GET', `/chatbots/${id}/config`],
      ['PUT', `/chatbots/${id}/simple/config`, { instruction: 'x', model_id: modelId }],
      ['POST', `/chatbots/${id}/users/${other.admin.id}/grant`],
      ['GET', `/chatbots/${id}/users`],
      ['GET', `/chatbots?workspace_id=${ws}`],
      ['GET', `/chat-interface/chatbots/${id}/input-fields`],
      ['POST', '/chat-interface/conversations', { title: '', chatbot_id: id }],
    ] as const) {
      const res = await call(t.app, method, url, { token: other.admin.token, body });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    expect((await call(t.app, 'GET', `/chatbots/${id}`, { token: org.admin.token })).body.chatbot.name).toBe(
      'Mine',
    );
  });

  it('bad input: unknown type, empty name, unknown fields', async () => {
    expect((await create(org.admin.token, { name: 'x', type: 'agent' })).status).toBe(422);
    expect((await create(org.admin.token, { name: '  ', type: 'simple' })).status).toBe(422);
    expect((await create(org.admin.token, { name: 'x', type: 'simple', is_published: true })).status).toBe(
      422,
    );
  });
});
