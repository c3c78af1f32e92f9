import { models, providers } from '@atelier/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '@atelier/metering';
import { call, createOrg, startTestApp, type Org, type TestApp } from './helpers';

const SECRET = 'sk-live-very-secret-key-0123456789abcd';
let t: TestApp;
let org: Org;
let ws: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await createOrg(t.app);
  ws = await org.workspace(org.admin, 'Models');
});
afterAll(() => t.close());

async function addProvider(token: string, body: object = {}) {
  return call(t.app, 'POST', '/providers', {
    token,
    body: { workspace_id: ws, name: 'OpenAI', kind: 'openai', api_key: SECRET, ...body },
  });
}

describe('providers', () => {
  it('GET /providers/kinds lists the seven kinds with what they need', async () => {
    const res = await call(t.app, 'GET', '/providers/kinds', { token: org.admin.token });
    expect(res.body.kinds.map((k: { kind: string }) => k.kind)).toEqual([
      'openai',
      'azure_openai',
      'anthropic',
      'mistral',
      'ollama',
      'openai_compatible',
      'rerank',
    ]);
    const azure = res.body.kinds.find((k: { kind: string }) => k.kind === 'azure_openai');
    expect(azure).toMatchObject({
      needs_base_url: true,
      settings: [{ name: 'api_version', required: true }],
    });
  });

  it('stores the key encrypted and never answers it, only a masked hint', async () => {
    const created = await addProvider(org.admin.token);
    expect(created.status).toBe(201);
    const id = created.body.provider_id;
    const list = await call(t.app, 'GET', `/providers?workspace_id=${ws}`, { token: org.admin.token });
    const shown = list.body.providers.find((p: { id: string }) => p.id === id);
    expect(shown).toMatchObject({ name: 'OpenAI', kind: 'openai', api_key_hint: '…abcd', base_url: null });
    expect(JSON.stringify(list.body)).not.toContain(SECRET);
    expect(JSON.stringify(list.body)).not.toContain('sk-live');

    const [row] = await t.app.db.select().from(providers).where(eq(providers.id, id));
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(row!.apiKeyEncrypted).toMatch(/^v1\./);
    // The round trip: the server's key opens it, bound to the row's id.
    const box = createSecretBox(t.app.config.encryptionKey);
    expect(box.open(row!.apiKeyEncrypted!, id)).toBe(SECRET);
    expect(() => box.open(row!.apiKeyEncrypted!, 'another-row')).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 1)).open(row!.apiKeyEncrypted!, id)).toThrow();
  });

  it('updates without touching the key unless a new one is given', async () => {
    const id = (await addProvider(org.admin.token)).body.provider_id;
    const [before] = await t.app.db.select().from(providers).where(eq(providers.id, id));
    await call(t.app, 'PUT', `/providers/${id}`, { token: org.admin.token, body: { name: 'Renamed' } });
    const [same] = await t.app.db.select().from(providers).where(eq(providers.id, id));
    expect(same!.apiKeyEncrypted).toBe(before!.apiKeyEncrypted);
    expect(same!.name).toBe('Renamed');
    await call(t.app, 'PUT', `/providers/${id}`, {
      token: org.admin.token,
      body: { api_key: 'sk-new-key-9999' },
    });
    const list = await call(t.app, 'GET', `/providers?workspace_id=${ws}`, { token: org.admin.token });
    expect(list.body.providers.find((p: { id: string }) => p.id === id).api_key_hint).toBe('…9999');
  });

  it("refuses what a kind needs but lacks, and a provider's unknown fields", async () => {
    const noUrl = await addProvider(org.admin.token, { kind: 'openai_compatible', api_key: undefined });
    expect([noUrl.status, noUrl.body.code]).toEqual([422, 'base_url_required']);
    const noKey = await addProvider(org.admin.token, { api_key: undefined });
    expect([noKey.status, noKey.body.code]).toEqual([422, 'api_key_required']);
    const badUrl = await addProvider(org.admin.token, { kind: 'openai_compatible', base_url: 'ftp://x' });
    expect(badUrl.status).toBe(422);
    const extra = await addProvider(org.admin.token, { organization_id: org.id });
    expect(extra.status).toBe(422);
    const ollama = await addProvider(org.admin.token, { kind: 'ollama', api_key: undefined, name: 'Local' });
    expect(ollama.status).toBe(201);
  });

  it('refuses cloud-metadata and link-local base URLs', async () => {
    for (const url of [
      'http://169.254.169.254/latest',
      'http://[fe80::1]/v1',
      'http://metadata.google.internal/v1',
    ]) {
      const res = await addProvider(org.admin.token, { kind: 'openai_compatible', base_url: url });
      expect([res.status, res.body.code], url).toEqual([422, 'unsafe_url']);
    }
  });

  it('deleting a provider deletes its models', async () => {
    const id = (await addProvider(org.admin.token)).body.provider_id;
    const model = await call(t.app, 'POST', '/models', {
      token: org.admin.token,
      body: { workspace_id: ws, provider_id: id, model_name: 'gpt-4o-mini', model_type: 'llm' },
    });
    expect(model.status).toBe(201);
    expect((await call(t.app, 'DELETE', `/providers/${id}`, { token: org.admin.token })).status).toBe(200);
    expect(await t.app.db.select().from(models).where(eq(models.id, model.body.model_id))).toEqual([]);
  });

  it('workspace viewers may read but not change; users of other workspaces see nothing', async () => {
    const creator = await org.member('creator');
    await call(t.app, 'POST', '/user_workspace_roles', {
      token: org.admin.token,
      body: { user_id: creator.id, workspace_id: ws, workspace_role_id: 'viewer' },
    });
    expect((await call(t.app, 'GET', `/providers?workspace_id=${ws}`, { token: creator.token })).status).toBe(
      200,
    );
    expect((await addProvider(creator.token)).status).toBe(403);
    const outsider = await org.member('creator');
    expect(
      (await call(t.app, 'GET', `/providers?workspace_id=${ws}`, { token: outsider.token })).status,
    ).toBe(404);
  });
});

describe('models', () => {
  let providerId: string;
  beforeAll(async () => {
    providerId = (await addProvider(org.admin.token, { name: 'For models' })).body.provider_id;
  });

  it('GET /models/types answers the nine types', async () => {
    const res = await call(t.app, 'GET', '/models/types', { token: org.admin.token });
    expect(res.body.data.map((d: { id: string }) => d.id)).toEqual([
      'llm',
      'llm-multimodal',
      'ocr',
      'text-to-image',
      'text-to-video',
      'speech-to-text',
      'text-to-speech',
      'text-embeddings',
      'rerank',
    ]);
  });

  it('create, get, filter by type, update, delete', async () => {
    const body = { workspace_id: ws, provider_id: providerId };
    const llm = await call(t.app, 'POST', '/models', {
      token: org.admin.token,
      body: {
        ...body,
        model_name: 'gpt-4o',
        model_type: 'llm-multimodal',
        description: 'Vision',
        pricing: { input_per_1k: 0.5, output_per_1k: 1.5 },
      },
    });
    const emb = await call(t.app, 'POST', '/models', {
      token: org.admin.token,
      body: {
        ...body,
        name: 'Small embeddings',
        model_name: 'text-embedding-3-small',
        model_type: 'text-embeddings',
      },
    });
    expect([llm.status, emb.status]).toEqual([201, 201]);

    const got = await call(t.app, 'GET', `/models/${llm.body.model_id}`, { token: org.admin.token });
    expect(got.body.model).toMatchObject({
      name: 'gpt-4o',
      model_name: 'gpt-4o',
      model_type: 'llm-multimodal',
      description: 'Vision',
      pricing: { input_per_1k: 0.5, output_per_1k: 1.5, per_call: 0, per_image: 0, per_second: 0 },
      provider: { id: providerId, kind: 'openai', name: 'For models' },
    });
    expect(got.body.model.provider).not.toHaveProperty('api_key_hint');
    expect(JSON.stringify(got.body)).not.toContain(SECRET);

    const filtered = await call(
      t.app,
      'GET',
      `/models_with_partial_server?workspace_id=${ws}&model_types=llm&model_types=llm-multimodal`,
      { token: org.admin.token },
    );
    expect(filtered.body.models.map((m: { id: string }) => m.id)).toEqual([llm.body.model_id]);
    const embeddings = await call(t.app, 'GET', `/models_embeddings?workspace_id=${ws}`, {
      token: org.admin.token,
    });
    expect(embeddings.body.models.map((m: { name: string }) => m.name)).toEqual(['Small embeddings']);

    const user = await org.member('user');
    await call(t.app, 'POST', '/user_workspace_roles', {
      token: org.admin.token,
      body: { user_id: user.id, workspace_id: ws, workspace_role_id: 'viewer' },
    });
    expect((await call(t.app, 'GET', `/models/${llm.body.model_id}`, { token: user.token })).status).toBe(
      200,
    );
    expect(
      (
        await call(t.app, 'PUT', `/models/${llm.body.model_id}`, {
          token: user.token,
          body: { description: 'x' },
        })
      ).status,
    ).toBe(403);

    const updated = await call(t.app, 'PUT', `/models/${llm.body.model_id}`, {
      token: org.admin.token,
      body: { description: 'Sees images', pricing: { per_call: 0.01 } },
    });
    expect(updated.status).toBe(200);
    const after = await call(t.app, 'GET', `/models/${llm.body.model_id}`, { token: org.admin.token });
    expect(after.body.model).toMatchObject({
      description: 'Sees images',
      pricing: { input_per_1k: 0.5, per_call: 0.01 },
    });

    expect(
      (await call(t.app, 'DELETE', `/models/${emb.body.model_id}`, { token: org.admin.token })).status,
    ).toBe(200);
    expect(
      (await call(t.app, 'GET', `/models/${emb.body.model_id}`, { token: org.admin.token })).status,
    ).toBe(404);
  });

  it('refuses a bad type, a negative price, and a provider of another workspace', async () => {
    const other = await org.workspace(org.admin, 'Other');
    for (const body of [
      { workspace_id: ws, provider_id: providerId, model_name: 'x', model_type: 'chat' },
      {
        workspace_id: ws,
        provider_id: providerId,
        model_name: 'x',
        model_type: 'llm',
        pricing: { input_per_1k: -1 },
      },
      { workspace_id: ws, provider_id: providerId, model_type: 'llm' },
    ]) {
      expect(
        (await call(t.app, 'POST', '/models', { token: org.admin.token, body })).status,
        JSON.stringify(body),
      ).toBe(422);
    }
    const cross = await call(t.app, 'POST', '/models', {
      token: org.admin.token,
      body: { workspace_id: other, provider_id: providerId, model_name: 'x', model_type: 'llm' },
    });
    expect([cross.status, cross.body.code]).toEqual([422, 'provider_in_other_workspace']);
  });

  it("another organization's providers and models answer 404", async () => {
    const model = await call(t.app, 'POST', '/models', {
      token: org.admin.token,
      body: { workspace_id: ws, provider_id: providerId, model_name: 'secret-model', model_type: 'llm' },
    });
    const intruder = await createOrg(t.app);
    const theirWs = await intruder.workspace(intruder.admin, 'Theirs');
    for (const [method, url, body] of [
      ['GET', `/models/${model.body.model_id}`],
      ['PUT', `/models/${model.body.model_id}`, { description: 'pwned' }],
      ['DELETE', `/models/${model.body.model_id}`],
      ['POST', `/models/${model.body.model_id}/invoke`, { messages: [{ role: 'user', content: 'hi' }] }],
      ['PUT', `/providers/${providerId}`, { name: 'pwned' }],
      ['DELETE', `/providers/${providerId}`],
      ['POST', `/providers/${providerId}/test`],
      ['GET', `/providers/${providerId}/remote-models`],
      ['GET', `/providers?workspace_id=${ws}`],
      ['GET', `/models_with_partial_server?workspace_id=${ws}`],
      [
        'POST',
        '/models',
        { workspace_id: theirWs, provider_id: providerId, model_name: 'x', model_type: 'llm' },
      ],
    ] as const) {
      const res = await call(t.app, method, url, { token: intruder.admin.token, body });
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    const still = await call(t.app, 'GET', `/models/${model.body.model_id}`, { token: org.admin.token });
    expect(still.body.model.description).toBe('');
  });
});
