import { apiKeys, chatbots, type Db } from '@atelier/db';
import type { ApiKey, CreatedApiKey } from '@atelier/schemas';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { ApiKeyPrincipal, Principal } from '../auth/principal';
import type { ChatbotsService } from '../chatbots/chatbots-service';
import { AppError, notFound } from '../errors';
import { isApiKeyShaped, type ApiKeyHasher } from './api-key-hash';

type ApiKeyRow = typeof apiKeys.$inferSelect;

/** last_used_at is written at most this often per key (not on every request). */
const LAST_USED_PRECISION_MS = 60_000;

const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
});

const invalidKey = () =>
  new AppError(401, 'invalid_api_key', 'The API key is not valid. Send `Authorization: Bearer atl_…`.');

/**
 * A chatbot's API keys: created (the key shown once), listed, revoked by the builders of its workspace;
 * and resolved on each public-API request from the key's hash.
 */
export function createApiKeysService(deps: { db: Db; chatbots: ChatbotsService; hasher: ApiKeyHasher }) {
  const { db, hasher } = deps;

  // One prepared lookup on every public-API request: the key by its hash, with its chatbot's state.
  const byHash = db
    .select({
      key: apiKeys,
      published: chatbots.isPublished,
    })
    .from(apiKeys)
    .innerJoin(chatbots, eq(chatbots.id, apiKeys.chatbotId))
    .where(eq(apiKeys.keyHash, sql.placeholder('hash')))
    .limit(1)
    .prepare('api_key_by_hash');

  return {
    async list(principal: Principal, chatbotId: string): Promise<ApiKey[]> {
      const bot = await deps.chatbots.forBuilder(principal, chatbotId, false);
      const rows = await db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.chatbotId, bot.id), isNull(apiKeys.revokedAt)))
        .orderBy(desc(apiKeys.createdAt));
      return rows.map(toApiKey);
    },

    async create(principal: Principal, chatbotId: string, name: string): Promise<CreatedApiKey> {
      const bot = await deps.chatbots.forBuilder(principal, chatbotId);
      const minted = hasher.mint();
      const [row] = await db
        .insert(apiKeys)
        .values({
          organizationId: principal.organizationId,
          workspaceId: bot.workspaceId,
          chatbotId: bot.id,
          name,
          prefix: minted.prefix,
          keyHash: minted.hash,
          createdBy: principal.userId,
        })
        .returning();
      if (!row) throw new Error('insert returned nothing');
      return { ...toApiKey(row), key: minted.key };
    },

    /** Refused from now on; the row stays, so the conversations and logs made with it keep its name. */
    async revoke(principal: Principal, chatbotId: string, keyId: string): Promise<void> {
      const bot = await deps.chatbots.forBuilder(principal, chatbotId);
      const [revoked] = await db
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.id, keyId), eq(apiKeys.chatbotId, bot.id), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      if (!revoked) throw notFound('API key');
    },

    /** The caller behind a bearer token of the public API, or a refusal (401, or 409 unpublished). */
    async authenticate(token: string): Promise<ApiKeyPrincipal> {
      if (!isApiKeyShaped(token)) throw invalidKey();
      const [found] = await byHash.execute({ hash: hasher.hash(token) });
      if (!found) throw invalidKey();
      const { key } = found;
      if (key.revokedAt) {
        throw new AppError(401, 'api_key_revoked', 'This API key has been revoked; ask for a new one.');
      }
      if (!found.published) {
        throw new AppError(409, 'chatbot_unpublished', 'This assistant is not published yet.');
      }
      const now = Date.now();
      if (!key.lastUsedAt || now - key.lastUsedAt.getTime() > LAST_USED_PRECISION_MS) {
        await db
          .update(apiKeys)
          .set({ lastUsedAt: new Date(now) })
          .where(eq(apiKeys.id, key.id));
      }
      return {
        keyId: key.id,
        keyName: key.name,
        organizationId: key.organizationId,
        workspaceId: key.workspaceId,
        chatbotId: key.chatbotId,
      };
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
