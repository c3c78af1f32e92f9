import { models, providers, type Db } from '@atelier/db';
import { withUserinfo, type UrlPolicy } from '@atelier/net';
import { createAdapters, type ProviderAdapters, type ProviderConfig } from '@atelier/providers';
import { eq, sql } from 'drizzle-orm';
import { MeteringError } from './errors';
import type { MeterTarget, ProviderRow } from './inference-log';
import type { SecretBox } from './secret-box';

/** A model of a workspace with its provider (what a metered call runs on). */
export type ModelTarget = MeterTarget;

/** A cache of model rows with their provider, by model id (the runtime's shared caches fit it). */
export interface ModelTargetCache {
  get(modelId: string, load: () => Promise<ModelTarget | null>): Promise<ModelTarget | null>;
  invalidate(modelId: string | null): Promise<void>;
}

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
  /**
   * Where model rows with their provider are kept between calls (by model id), dropped by whoever
   * changes a model or a provider (`invalidate`); without it every call reads the database.
   */
  targets?: ModelTargetCache;
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

  const targetById = deps.db
    .select({ model: models, provider: providers })
    .from(models)
    .innerJoin(providers, eq(providers.id, models.providerId))
    .where(eq(models.id, sql.placeholder('id')))
    .limit(1)
    .prepare('model_target_by_id');
  const readTarget = async (modelId: string): Promise<ModelTarget | null> =>
    (await targetById.execute({ id: modelId }))[0] ?? null;

  /** A model of the workspace, with its provider; another workspace's or organization's id is not found. */
  async function target(organizationId: string, workspaceId: string, modelId: string): Promise<ModelTarget> {
    const row = deps.targets
      ? await deps.targets.get(modelId, () => readTarget(modelId))
      : await readTarget(modelId);
    if (!row || row.model.organizationId !== organizationId || row.model.workspaceId !== workspaceId) {
      throw new MeteringError(
        404,
        'model_not_found',
        `The model ${modelId} does not exist in this workspace; choose another model.`,
      );
    }
    return row;
  }

  /**
   * Drops a changed or deleted model (`null`: every model, as when a provider or a workspace changes)
   * from the cache, in every process.
   */
  const forget = async (modelId: string | null): Promise<void> => {
    await deps.targets?.invalidate(modelId);
  };

  return { configFor, adaptersFor, target, forget };
}

export type ModelAccess = ReturnType<typeof createModelAccess>;
