import {
  chatbotAccess,
  chatbots,
  models,
  ragCollections,
  userWorkspaceRoles,
  users,
  workspaces,
  type Db,
} from '@atelier/db';
import type { Chatbot, ChatbotType, SimpleConfigBody } from '@atelier/schemas';
import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Principal } from '../auth/principal';
import { AppError, notFound } from '../errors';
import type { ProvidersService } from '../providers/providers-service';
import type { WorkspacesService } from '../workspaces/workspaces-service';
import { assertRunnable, assertSavable, parseFlowConfig } from '../runs/flow-validation';
import { hasChatbotAccess } from './chat-access';
import { toChatbot, type ChatbotRow } from './chatbot-view';
import { publishedSettingsOf } from './published';

const CHAT_MODEL_TYPES = ['llm', 'llm-multimodal'];

export function createChatbotsService(deps: {
  db: Db;
  workspaces: WorkspacesService;
  providers: ProvidersService;
}) {
  const { db } = deps;

  async function row(principal: Principal, id: string): Promise<ChatbotRow> {
    const [found] = await db
      .select()
      .from(chatbots)
      .where(and(eq(chatbots.id, id), eq(chatbots.organizationId, principal.organizationId)))
      .limit(1);
    if (!found) throw notFound('chatbot');
    return found;
  }

  /** For building: the chatbot's workspace must be visible, and changes need editor rights. */
  async function forBuilder(principal: Principal, id: string, edit = true): Promise<ChatbotRow> {
    const found = await row(principal, id);
    if (principal.role === 'user') throw notFound('chatbot');
    await deps.workspaces.visible(principal, found.workspaceId).catch(() => {
      throw notFound('chatbot');
    });
    if (edit) await deps.providers.assertCanEdit(principal, found.workspaceId);
    return found;
  }

  async function chatModel(principal: Principal, workspaceId: string, modelId: string, label: string) {
    const [model] = await db
      .select()
      .from(models)
      .where(
        and(
          eq(models.id, modelId),
          eq(models.organizationId, principal.organizationId),
          eq(models.workspaceId, workspaceId),
        ),
      )
      .limit(1);
    if (!model) throw new AppError(422, 'model_not_found', `The ${label} is not a model of this workspace.`);
    if (!CHAT_MODEL_TYPES.includes(model.modelType)) {
      throw new AppError(422, 'model_type_mismatch', `The ${label} must be an LLM or a multimodal LLM.`);
    }
  }

  const touch = (id: string, patch: PgUpdateSetSource<typeof chatbots>) =>
    db
      .update(chatbots)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(chatbots.id, id));

  return {
    row,
    forBuilder,

    async list(principal: Principal, workspaceId: string): Promise<Chatbot[]> {
      await deps.workspaces.visible(principal, workspaceId);
      const rows = await db
        .select()
        .from(chatbots)
        .where(
          and(eq(chatbots.workspaceId, workspaceId), eq(chatbots.organizationId, principal.organizationId)),
        )
        .orderBy(desc(chatbots.updatedAt));
      return rows.map(toChatbot);
    },

    /** The published chatbots this person may chat with. */
    async forUser(principal: Principal): Promise<Chatbot[]> {
      const published = and(
        eq(chatbots.organizationId, principal.organizationId),
        eq(chatbots.isPublished, true),
      );
      // With their workspace's name: the chat groups assistants by workspace.
      const withWorkspace = (where: SQL | undefined) =>
        db
          .select({ bot: chatbots, workspaceName: workspaces.name })
          .from(chatbots)
          .innerJoin(workspaces, eq(workspaces.id, chatbots.workspaceId))
          .where(where)
          .orderBy(asc(workspaces.name), asc(chatbots.name))
          .then((rows) => rows.map((r) => ({ ...toChatbot(r.bot), workspace_name: r.workspaceName })));
      if (principal.role === 'admin') return withWorkspace(published);
      const granted = db
        .select({ id: chatbotAccess.chatbotId })
        .from(chatbotAccess)
        .where(eq(chatbotAccess.userId, principal.userId));
      const memberOf = db
        .select({ id: userWorkspaceRoles.workspaceId })
        .from(userWorkspaceRoles)
        .where(eq(userWorkspaceRoles.userId, principal.userId));
      const reachable =
        principal.role === 'creator'
          ? or(inArray(chatbots.id, granted), inArray(chatbots.workspaceId, memberOf))
          : inArray(chatbots.id, granted);
      return withWorkspace(and(published, reachable));
    },

    async get(principal: Principal, id: string): Promise<Chatbot> {
      const found = await row(principal, id);
      if (!(await hasChatbotAccess(db, principal, found))) {
        // Builders who see the workspace may also read it; anyone else learns nothing.
        if (principal.role === 'user') throw notFound('chatbot');
        await deps.workspaces.visible(principal, found.workspaceId).catch(() => {
          throw notFound('chatbot');
        });
      }
      return toChatbot(found);
    },

    async create(
      principal: Principal,
      input: { workspace_id: string; name: string; description?: string | undefined; type: ChatbotType },
    ) {
      await deps.providers.assertCanEdit(principal, input.workspace_id);
      const [created] = await db
        .insert(chatbots)
        .values({
          organizationId: principal.organizationId,
          workspaceId: input.workspace_id,
          name: input.name,
          description: input.description ?? '',
          type: input.type,
          createdBy: principal.userId,
        })
        .returning({ id: chatbots.id });
      if (!created) throw new Error('insert returned nothing');
      return created.id;
    },

    async update(
      principal: Principal,
      id: string,
      input: { name?: string | undefined; description?: string | undefined },
    ) {
      await forBuilder(principal, id);
      await touch(id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
      });
    },

    async saveSimpleConfig(principal: Principal, id: string, input: SimpleConfigBody) {
      const found = await forBuilder(principal, id);
      if (found.type !== 'simple') {
        throw new AppError(422, 'wrong_chatbot_type', 'Only simple chatbots take this configuration.');
      }
      await chatModel(principal, found.workspaceId, input.model_id, 'model');
      if (input.fallback_model_id) {
        if (input.fallback_model_id === input.model_id) {
          throw new AppError(422, 'fallback_same_as_model', 'The fallback model must differ from the model.');
        }
        await chatModel(principal, found.workspaceId, input.fallback_model_id, 'fallback model');
      }
      const collectionIds = [...new Set(input.knowledge_collection_ids ?? [])];
      if (collectionIds.length > 0) {
        const known = await db
          .select({ id: ragCollections.id })
          .from(ragCollections)
          .where(
            and(inArray(ragCollections.id, collectionIds), eq(ragCollections.workspaceId, found.workspaceId)),
          );
        const missing = collectionIds.filter((c) => !known.some((r) => r.id === c));
        if (missing.length > 0) {
          throw new AppError(
            422,
            'collection_not_found',
            `The knowledge collection ${missing[0]} does not exist in this workspace; choose another one.`,
          );
        }
      }
      const patch = {
        instruction: input.instruction,
        modelId: input.model_id,
        ...(input.fallback_model_id !== undefined ? { fallbackModelId: input.fallback_model_id } : {}),
        ...(input.knowledge_collection_ids !== undefined ? { knowledgeCollectionIds: collectionIds } : {}),
        ...(input.store_conversations !== undefined ? { storeConversations: input.store_conversations } : {}),
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
      };
      // A save that changes something is a new version (published chatbots then have unpublished changes).
      const changed = (Object.keys(patch) as (keyof typeof patch)[]).some(
        (key) => JSON.stringify(patch[key]) !== JSON.stringify(found[key]),
      );
      await touch(id, {
        ...patch,
        ...(changed ? { configVersion: sql`${chatbots.configVersion} + 1` } : {}),
      });
    },

    /**
     * Saves a chatflow's or workflow's graph as a draft: its shape is checked, its logic at publish;
     * only separator patterns the regex engine refuses are refused already.
     */
    async saveFlowConfig(principal: Principal, id: string, configuration: unknown) {
      const found = await forBuilder(principal, id);
      if (found.type === 'simple') {
        throw new AppError(
          422,
          'wrong_chatbot_type',
          'A simple chatbot has no flow; save its settings instead.',
        );
      }
      const config = parseFlowConfig(configuration);
      assertSavable(config);
      await db
        .update(chatbots)
        .set({
          configuration: config,
          // Saving the same graph again is not a new version (jsonb equality ignores key order).
          configVersion: sql`case when ${chatbots.configuration} = ${JSON.stringify(config)}::jsonb then ${chatbots.configVersion} else ${chatbots.configVersion} + 1 end`,
          updatedAt: new Date(),
        })
        .where(eq(chatbots.id, id));
    },

    async publish(principal: Principal, id: string) {
      const found = await forBuilder(principal, id);
      if (found.type === 'simple' && !found.modelId) {
        throw new AppError(422, 'model_required', 'Choose a model and save before publishing this chatbot.');
      }
      if (found.type !== 'simple' && found.configuration.nodes.length === 0) {
        throw new AppError(422, 'empty_flow', 'Add nodes to the flow and save before publishing it.');
      }
      if (found.type !== 'simple') assertRunnable(parseFlowConfig(found.configuration));
      await touch(id, {
        isPublished: true,
        publishedVersion: found.configVersion,
        published: publishedSettingsOf(found),
      });
    },

    async duplicate(principal: Principal, id: string, newName: string | undefined) {
      const found = await forBuilder(principal, id);
      const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = found;
      const [copy] = await db
        .insert(chatbots)
        .values({
          ...rest,
          name: newName ?? `Copy of ${found.name}`,
          isPublished: false,
          publishedVersion: null,
          published: null,
          createdBy: principal.userId,
        })
        .returning({ id: chatbots.id });
      if (!copy) throw new Error('insert returned nothing');
      return copy.id;
    },

    async remove(principal: Principal, id: string) {
      await forBuilder(principal, id);
      await db
        .delete(chatbots)
        .where(and(eq(chatbots.id, id), eq(chatbots.organizationId, principal.organizationId)));
    },

    async config(principal: Principal, id: string) {
      const found = await forBuilder(principal, id, false);
      return {
        chatbot_id: found.id,
        workspace_id: found.workspaceId,
        is_published: found.isPublished,
        has_unpublished_changes: toChatbot(found).has_unpublished_changes,
        configuration: found.configuration,
      };
    },

    async grant(principal: Principal, id: string, userId: string) {
      await forBuilder(principal, id);
      const [target] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, userId), eq(users.organizationId, principal.organizationId)))
        .limit(1);
      if (!target) throw notFound('user');
      await db.insert(chatbotAccess).values({ chatbotId: id, userId }).onConflictDoNothing();
    },

    async revoke(principal: Principal, id: string, userId: string) {
      await forBuilder(principal, id);
      // Idempotent, so that bulk revokes can be retried safely.
      await db
        .delete(chatbotAccess)
        .where(and(eq(chatbotAccess.chatbotId, id), eq(chatbotAccess.userId, userId)));
    },

    async grantedUsers(principal: Principal, id: string): Promise<string[]> {
      await forBuilder(principal, id, false);
      const rows = await db
        .select({ userId: chatbotAccess.userId })
        .from(chatbotAccess)
        .where(eq(chatbotAccess.chatbotId, id));
      return rows.map((r) => r.userId);
    },
  };
}

export type ChatbotsService = ReturnType<typeof createChatbotsService>;
