import { randomUUID } from 'node:crypto';
import { providers, type Db } from '@atelier/db';
import { createAdapters, PROVIDER_KINDS, ProviderError, suggestModelType } from '@atelier/providers';
import type { CreateProviderBody, Provider, ProviderKind } from '@atelier/schemas';
import { and, asc, eq } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { AppError, notFound } from '../errors';
import type { WorkspacesService } from '../workspaces/workspaces-service';
import { keyHint, userinfoContext, type ModelAccess, type SecretBox } from '@atelier/metering';
import { assertSafeUrl, NetError, sameOrigin, splitUserinfo, type UrlPolicy } from '@atelier/net';

type ProviderRow = typeof providers.$inferSelect;

export interface ProvidersDeps {
  db: Db;
  workspaces: WorkspacesService;
  box: SecretBox;
  modelAccess: ModelAccess;
  /** PROVIDER_URL_POLICY and PROVIDER_URL_ALLOW; provider calls check every hop against it too. */
  urlPolicy: UrlPolicy;
}

export function toProvider(row: ProviderRow): Provider {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    name: row.name,
    kind: row.kind,
    // Rows saved before credentials were taken out may still hold them: never shown.
    base_url: row.baseUrl && splitUserinfo(row.baseUrl).url,
    settings: row.settings,
    api_key_hint: keyHint(row.apiKeyLast4),
    created_at: row.createdAt.toISOString(),
  };
}

export function createProvidersService(deps: ProvidersDeps) {
  const { db } = deps;

  /** A base URL the policy refuses is refused when it is saved (calls check again, hop by hop). */
  async function checkUrl(url: string) {
    try {
      await assertSafeUrl(url, deps.urlPolicy);
    } catch (error) {
      throw error instanceof NetError ? new AppError(error.status, error.code, error.detail) : error;
    }
  }

  /** Builders who may change a workspace's providers and models: org admins, workspace admins and editors. */
  async function assertCanEdit(principal: Principal, workspaceId: string) {
    await deps.workspaces.assertCanBuild(principal, workspaceId, 'change its providers and models');
  }

  async function find(principal: Principal, id: string): Promise<ProviderRow> {
    const [row] = await db
      .select()
      .from(providers)
      .where(and(eq(providers.id, id), eq(providers.organizationId, principal.organizationId)))
      .limit(1);
    if (!row) throw notFound('provider');
    await deps.workspaces.visible(principal, row.workspaceId).catch(() => {
      throw notFound('provider');
    });
    return row;
  }

  const { configFor, adaptersFor } = deps.modelAccess;

  function checkKind(
    kind: ProviderKind,
    fields: { baseUrl: string | null; apiKey: boolean; settings: Record<string, string> },
  ) {
    const info = PROVIDER_KINDS[kind];
    if (info.needs_base_url && !fields.baseUrl)
      throw new AppError(422, 'base_url_required', `${info.label} needs a base URL.`);
    if (info.needs_api_key && !fields.apiKey)
      throw new AppError(422, 'api_key_required', `${info.label} needs an API key.`);
    for (const setting of info.settings) {
      if (setting.required && !fields.settings[setting.name] && !setting.default) {
        throw new AppError(422, 'setting_required', `${info.label} needs the setting "${setting.label}".`);
      }
    }
  }

  const sealKey = (id: string, apiKey: string) => ({
    apiKeyEncrypted: deps.box.seal(apiKey, id),
    apiKeyLast4: apiKey.slice(-4),
  });

  /**
   * The base URL to store, its credentials taken out and sealed. A URL given without credentials keeps
   * the stored ones while it stays on their origin (a form shows the URL without them and sends it
   * back); a new origin drops them.
   */
  function storedBaseUrl(id: string, given: string | null, row?: ProviderRow) {
    if (!given) return { baseUrl: null, baseUrlUserinfoEncrypted: null };
    const { url, userinfo } = splitUserinfo(given);
    if (userinfo) {
      return { baseUrl: url, baseUrlUserinfoEncrypted: deps.box.seal(userinfo, userinfoContext(id)) };
    }
    const keep = row?.baseUrl && row.baseUrlUserinfoEncrypted && sameOrigin(row.baseUrl, url);
    return { baseUrl: url, baseUrlUserinfoEncrypted: keep ? row.baseUrlUserinfoEncrypted : null };
  }

  return {
    find,
    configFor,
    adaptersFor,
    assertCanEdit,

    async list(principal: Principal, workspaceId: string): Promise<Provider[]> {
      await deps.workspaces.visible(principal, workspaceId);
      const rows = await db
        .select()
        .from(providers)
        .where(
          and(eq(providers.workspaceId, workspaceId), eq(providers.organizationId, principal.organizationId)),
        )
        .orderBy(asc(providers.createdAt));
      return rows.map(toProvider);
    },

    async create(principal: Principal, body: CreateProviderBody): Promise<string> {
      await assertCanEdit(principal, body.workspace_id);
      const settings = { ...defaultSettings(body.kind), ...body.settings };
      checkKind(body.kind, { baseUrl: body.base_url ?? null, apiKey: Boolean(body.api_key), settings });
      if (body.base_url) await checkUrl(body.base_url);
      const id = randomUUID();
      await db.insert(providers).values({
        id,
        organizationId: principal.organizationId,
        workspaceId: body.workspace_id,
        name: body.name,
        kind: body.kind,
        ...storedBaseUrl(id, body.base_url ?? null),
        settings,
        ...(body.api_key ? sealKey(id, body.api_key) : {}),
      });
      return id;
    },

    async update(
      principal: Principal,
      id: string,
      body: { name?: string; base_url?: string | null; api_key?: string; settings?: Record<string, string> },
    ) {
      const row = await find(principal, id);
      await assertCanEdit(principal, row.workspaceId);
      const baseUrl = body.base_url === undefined ? row.baseUrl : body.base_url;
      const settings = { ...row.settings, ...body.settings };
      checkKind(row.kind, {
        baseUrl,
        apiKey: Boolean(body.api_key ?? row.apiKeyEncrypted),
        settings,
      });
      if (body.base_url) await checkUrl(body.base_url);
      await db
        .update(providers)
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.base_url !== undefined ? storedBaseUrl(id, body.base_url, row) : {}),
          settings,
          ...(body.api_key ? sealKey(id, body.api_key) : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(providers.id, id), eq(providers.organizationId, principal.organizationId)));
      await deps.modelAccess.forget(null);
    },

    async remove(principal: Principal, id: string) {
      const row = await find(principal, id);
      await assertCanEdit(principal, row.workspaceId);
      await db
        .delete(providers)
        .where(and(eq(providers.id, id), eq(providers.organizationId, principal.organizationId)));
      await deps.modelAccess.forget(null);
    },

    /** Lists the provider's models, which proves the URL and the key; answers how long it took. */
    async test(principal: Principal, id: string) {
      const row = await find(principal, id);
      const started = performance.now();
      try {
        if (row.baseUrl) await checkUrl(row.baseUrl);
        const models = await createAdapters(configFor(row)).listModels();
        const latency = Math.round(performance.now() - started);
        const detail =
          row.kind === 'rerank'
            ? 'The configuration is saved; the rerank API is checked on its first call.'
            : `Connected: the provider offers ${models.length} model${models.length === 1 ? '' : 's'}.`;
        return { ok: true, detail, latency_ms: latency };
      } catch (error) {
        const detail =
          error instanceof ProviderError || error instanceof AppError
            ? error.detail
            : 'The provider could not be reached.';
        return { ok: false, detail, latency_ms: Math.round(performance.now() - started) };
      }
    },

    async remoteModels(principal: Principal, id: string) {
      const row = await find(principal, id);
      if (row.baseUrl) await checkUrl(row.baseUrl);
      const models = await createAdapters(configFor(row)).listModels();
      return models
        .map((m) => ({ name: m.name, suggested_type: suggestModelType(m.name) }))
        .sort((a, b) => a.name.localeCompare(b.name));
    },
  };
}

function defaultSettings(kind: ProviderKind): Record<string, string> {
  return Object.fromEntries(
    PROVIDER_KINDS[kind].settings.flatMap((s) => (s.default ? [[s.name, s.default]] : [])),
  );
}

export type ProvidersService = ReturnType<typeof createProvidersService>;
