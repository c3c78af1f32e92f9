import { models, providers, type Db } from '@atelier/db';
import { withUserinfo, type UrlPolicy } from '@atelier/net';
import { createAdapters, type ProviderAdapters, type ProviderConfig } from '@atelier/providers';
import { and, eq } from 'drizzle-orm';
import { MeteringError } from './errors';
import type { MeterTarget, ProviderRow } from './inference-log';
import type { SecretBox } from './secret-box';

/** A model of a workspace with its provider (what a metered call runs on). */
export type ModelTarget = MeterTarget;

const ADAPTER_CACHE_SIZE = 256;

/** The sealing context of a provider's base-URL credentials (its API key's is the bare id). */
export const userinfoContext = (providerId: string) => `${providerId}:base_url`;

/**
 * Reaching a workspace's models: the provider's config with its key decrypted, and its adapters.
 * Building an SDK client and decrypting its key costs more than a whole token relay, so the adapters
 * of recently used providers are kept; a saved provider gets a new updated_at, hence a new entry.
 */
export function createModelAccess(deps: {
  db: Db;
  box: SecretBox;
  timeoutMs: number;
  /** What provider calls may reach: every request and redirect hop is checked against it. */
  urlPolicy: UrlPolicy;
}) {
  const cache = new Map<string, ProviderAdapters>();

  /** The provider as its adapters need it: secrets opened, credentials back in the base URL. */
  function configFor(row: ProviderRow): ProviderConfig {
    return {
      kind: row.kind,
      baseUrl:
        row.baseUrl && row.baseUrlUserinfoEncrypted
          ? withUserinfo(row.baseUrl, deps.box.open(row.baseUrlUserinfoEncrypted, userinfoContext(row.id)))
          : row.baseUrl,
      apiKey: row.apiKeyEncrypted ? deps.box.open(row.apiKeyEncrypted, row.id) : null,
      settings: row.settings,
      timeoutMs: deps.timeoutMs,
      urlPolicy: deps.urlPolicy,
    };
  }

  function adaptersFor(row: ProviderRow): ProviderAdapters {
    const key = `${row.id}:${row.updatedAt.getTime()}`;
    let adapters = cache.get(key);
    if (!adapters) {
      adapters = createAdapters(configFor(row));
      if (cache.size >= ADAPTER_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(key, adapters);
    }
    return adapters;
  }

  /** A model of the workspace, with its provider; another workspace's or organization's id is not found. */
  async function target(organizationId: string, workspaceId: string, modelId: string): Promise<ModelTarget> {
    const [row] = await deps.db
      .select({ model: models, provider: providers })
      .from(models)
      .innerJoin(providers, eq(providers.id, models.providerId))
      .where(
        and(
          eq(models.id, modelId),
          eq(models.organizationId, organizationId),
          eq(models.workspaceId, workspaceId),
        ),
      )
      .limit(1);
    if (!row) {
      throw new MeteringError(
        404,
        'model_not_found',
        `The model ${modelId} does not exist in this workspace; choose another model.`,
      );
    }
    return row;
  }

  return { configFor, adaptersFor, target };
}

export type ModelAccess = ReturnType<typeof createModelAccess>;
