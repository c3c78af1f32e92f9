import type { ModelAccess } from '@atelier/metering';
import { models, providers, type Db } from '@atelier/db';
import type { CreateModelBody, Model, ModelPricing, ModelType, ModelWithProvider } from '@atelier/schemas';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { pricingOf } from '@atelier/metering';
import type { Principal } from '../auth/principal';
import { AppError, notFound } from '../errors';
import type { WorkspacesService } from '../workspaces/workspaces-service';
import { toProvider, type ProvidersService } from './providers-service';

type ModelRow = typeof models.$inferSelect;
type ProviderRow = typeof providers.$inferSelect;

export { pricingOf };

function pricingColumns(pricing: Partial<ModelPricing> | undefined) {
  if (!pricing) return {};
  return {
    ...(pricing.input_per_1k !== undefined ? { inputPer1k: pricing.input_per_1k } : {}),
    ...(pricing.output_per_1k !== undefined ? { outputPer1k: pricing.output_per_1k } : {}),
    ...(pricing.per_call !== undefined ? { perCall: pricing.per_call } : {}),
    ...(pricing.per_image !== undefined ? { perImage: pricing.per_image } : {}),
    ...(pricing.per_second !== undefined ? { perSecond: pricing.per_second } : {}),
  };
}

export function toModel(row: ModelRow): Model {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    provider_id: row.providerId,
    name: row.name,
    model_name: row.modelName,
    model_type: row.modelType,
    description: row.description,
    pricing: pricingOf(row),
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * A model and its provider as answered: the provider without any secret, not even the hint; its base
 * URL only for builders (a plain user chats, and has no use for where the provider runs).
 */
function withProvider(principal: Principal, model: ModelRow, provider: ProviderRow): ModelWithProvider {
  const { api_key_hint: _hint, ...partial } = toProvider(provider);
  if (principal.role === 'user') partial.base_url = null;
  return { ...toModel(model), provider: partial };
}

export function createModelsService(deps: {
  db: Db;
  workspaces: WorkspacesService;
  providers: ProvidersService;
  modelAccess: Pick<ModelAccess, 'forget'>;
}) {
  const { db } = deps;

  async function findWithProvider(principal: Principal, id: string) {
    const [row] = await db
      .select({ model: models, provider: providers })
      .from(models)
      .innerJoin(providers, eq(providers.id, models.providerId))
      .where(and(eq(models.id, id), eq(models.organizationId, principal.organizationId)))
      .limit(1);
    if (!row) throw notFound('model');
    await deps.workspaces.visible(principal, row.model.workspaceId).catch(() => {
      throw notFound('model');
    });
    return row;
  }

  return {
    findWithProvider,

    async list(principal: Principal, workspaceId: string, types?: ModelType[]): Promise<ModelWithProvider[]> {
      await deps.workspaces.visible(principal, workspaceId);
      const conditions = [
        eq(models.workspaceId, workspaceId),
        eq(models.organizationId, principal.organizationId),
      ];
      if (types?.length) conditions.push(inArray(models.modelType, types));
      const rows = await db
        .select({ model: models, provider: providers })
        .from(models)
        .innerJoin(providers, eq(providers.id, models.providerId))
        .where(and(...conditions))
        .orderBy(asc(models.name), asc(models.createdAt));
      return rows.map((r) => withProvider(principal, r.model, r.provider));
    },

    async get(principal: Principal, id: string): Promise<ModelWithProvider> {
      const row = await findWithProvider(principal, id);
      return withProvider(principal, row.model, row.provider);
    },

    async create(principal: Principal, body: CreateModelBody): Promise<string> {
      const provider = await deps.providers.find(principal, body.provider_id);
      if (provider.workspaceId !== body.workspace_id) {
        throw new AppError(422, 'provider_in_other_workspace', 'The provider belongs to another workspace.');
      }
      await deps.providers.assertCanEdit(principal, body.workspace_id);
      const [row] = await db
        .insert(models)
        .values({
          organizationId: principal.organizationId,
          workspaceId: body.workspace_id,
          providerId: provider.id,
          name: body.name || body.model_name,
          modelName: body.model_name,
          modelType: body.model_type,
          description: body.description ?? '',
          ...pricingColumns(body.pricing),
        })
        .returning({ id: models.id });
      if (!row) throw new Error('insert returned nothing');
      return row.id;
    },

    async update(
      principal: Principal,
      id: string,
      body: {
        name?: string;
        model_name?: string;
        model_type?: ModelType;
        description?: string;
        pricing?: Partial<ModelPricing>;
      },
    ) {
      const { model } = await findWithProvider(principal, id);
      await deps.providers.assertCanEdit(principal, model.workspaceId);
      await db
        .update(models)
        .set({
          ...(body.name !== undefined ? { name: body.name || model.modelName } : {}),
          ...(body.model_name !== undefined ? { modelName: body.model_name } : {}),
          ...(body.model_type !== undefined ? { modelType: body.model_type } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...pricingColumns(body.pricing),
          updatedAt: new Date(),
        })
        .where(and(eq(models.id, id), eq(models.organizationId, principal.organizationId)));
      await deps.modelAccess.forget(id);
    },

    async remove(principal: Principal, id: string) {
      const { model } = await findWithProvider(principal, id);
      await deps.providers.assertCanEdit(principal, model.workspaceId);
      await db
        .delete(models)
        .where(and(eq(models.id, id), eq(models.organizationId, principal.organizationId)));
      await deps.modelAccess.forget(id);
    },
  };
}

export type ModelsService = ReturnType<typeof createModelsService>;
