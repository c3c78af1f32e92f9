import { createHmac, hkdfSync } from 'node:crypto';
import { apiKeys } from '@atelier/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, type Org } from './helpers';
import { startPublicWorld, type PublicWorld } from './public-api-fixtures';

let w: PublicWorld;
let other: Org;

beforeAll(async () => {
  w = await startPublicWorld();
  other = await createOrg(w.app);
});
afterAll(() => w.close());

const keysOf = (chatbotId: string, token = w.org.admin.token) =>
  call(w.app, 'GET', `/chatbots/${chatbotId}/api_keys`, { token });
const models = (key: string) => call(w.app, 'GET', '/v1/models', { token: key });

describe('API keys', () => {
  it('are shown once at creation, listed without the key, and stored as a keyed hash', async () => {
    const created = await call(w.app, 'POST', `/chatbots/${w.bots.simple}/api_keys`, {
      token: w.org.admin.token,
      body: { name: '  Website  ' },
    });
    expect(created.status).toBe(201);
    const { key, ...shown } = created.body;
    expect(key).toMatch(/^atl_[A-Za-z0-9_-]{43}$/);
    expect(shown).toMatchObject({ name: 'Website', prefix: key.slice(0, 12), last_used_at: null });

    const list = await keysOf(w.bots.simple);
    expect(list.status).toBe(200);
    const listed = list.body.api_keys.find((k: { id: string }) => k.id === shown.id);
    expect(listed).toEqual({ ...shown });
    expect(JSON.stringify(list.body)).not.toContain(key);

    const [row] = await w.app.db.select().from(apiKeys).where(eq(apiKeys.id, shown.id));
    expect(Object.values(row!).map(String)).not.toContain(key);
    // HMAC-SHA256 under a key derived from ENCRYPTION_KEY (the test config's: 32 bytes of 7).
    const hmacKey = Buffer.from(
      hkdfSync('sha256', Buffer.alloc(32, 7), Buffer.alloc(0), 'atelier/api-key-hash', 32),
    );
    expect(row!.keyHash).toBe(createHmac('sha256', hmacKey).update(key).digest('hex'));

    // Using it marks it used.
    expect((await models(key)).status).toBe(200);
    const after = await keysOf(w.bots.simple);
    const used = after.body.api_keys.find((k: { id: string }) => k.id === shown.id);
    expect(Date.parse(used.last_used_at)).toBeGreaterThan(Date.parse(shown.created_at) - 1000);
  });

  it('a revoked key is refused with 401 and leaves the list; revoking twice answers 404', async () => {
    const { key, id } = await w.key(w.bots.simple, 'Old integration');
    expect((await models(key)).status).toBe(200);
    const revoked = await call(w.app, 'DELETE', `/chatbots/${w.bots.simple}/api_keys/${id}`, {
      token: w.org.admin.token,
    });
    expect(revoked.status).toBe(204);
    const refused = await models(key);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({
      code: 'api_key_revoked',
      detail: expect.any(String),
      error: { code: 'api_key_revoked', type: 'authentication_error' },
    });
    const list = await keysOf(w.bots.simple);
    expect(list.body.api_keys.map((k: { id: string }) => k.id)).not.toContain(id);
    const again = await call(w.app, 'DELETE', `/chatbots/${w.bots.simple}/api_keys/${id}`, {
      token: w.org.admin.token,
    });
    expect(again.status).toBe(404);
  });

  it('reaches only its own chatbot, and only while it is published', async () => {
    const { key } = await w.key(w.bots.simple);
    const elsewhere = await call(w.app, 'POST', '/v1/chat/completions', {
      token: key,
      body: { model: w.bots.chatflow, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error).toMatchObject({ code: 'model_not_found', type: 'not_found_error' });

    const draft = (
      await call(w.app, 'POST', '/chatbots', {
        token: w.org.admin.token,
        body: { workspace_id: w.workspace, name: 'Draft', type: 'simple' },
      })
    ).body.id as string;
    const draftKey = await w.key(draft);
    const unpublished = await call(w.app, 'POST', '/v1/chat-messages', {
      token: draftKey.key,
      body: { user: 'u1', message: 'hi' },
    });
    expect(unpublished.status).toBe(409);
    expect(unpublished.body).toEqual({ code: 'chatbot_unpublished', detail: expect.any(String) });
  });

  it('is not a user token, and a user token is not a key', async () => {
    const { key } = await w.key(w.bots.simple);
    const asToken = await keysOf(w.bots.simple, key);
    expect(asToken.status).toBe(401);
    expect(asToken.body.code).toBe('invalid_token');
    const jwt = await models(w.org.admin.token);
    expect(jwt.status).toBe(401);
    expect(jwt.body.code).toBe('invalid_api_key');
    const forged = await models(`atl_${'A'.repeat(43)}`);
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe('invalid_api_key');
  });

  it('are managed by the builders of the workspace only: other organizations get 404, users 403', async () => {
    const { id } = await w.key(w.bots.simple, 'Kept');
    for (const [method, url, body] of [
      ['GET', `/chatbots/${w.bots.simple}/api_keys`, undefined],
      ['POST', `/chatbots/${w.bots.simple}/api_keys`, { name: 'Stolen' }],
      ['DELETE', `/chatbots/${w.bots.simple}/api_keys/${id}`, undefined],
    ] as const) {
      const res = await call(w.app, method, url, { token: other.admin.token, body });
      expect(res.status, `${method} ${url}`).toBe(404);
      const user = await w.org.member('user');
      const asUser = await call(w.app, method, url, { token: user.token, body });
      expect(asUser.status, `${method} ${url}`).toBe(403);
    }
    // A creator who is not a member of the chatbot's workspace does not see it either.
    const outsider = await w.org.member('creator');
    expect((await keysOf(w.bots.simple, outsider.token)).status).toBe(404);
    const list = await keysOf(w.bots.simple);
    expect(list.body.api_keys.map((k: { name: string }) => k.name)).toContain('Kept');
    expect(list.body.api_keys.map((k: { name: string }) => k.name)).not.toContain('Stolen');
  });
});
