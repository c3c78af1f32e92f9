import { z } from 'zod';
import { uuid } from './common';
import { chatbotTypes } from './constants';

export const chatbotType = z.enum(chatbotTypes);

const chatbotName = z.string().trim().min(1, { error: 'This field is required' }).max(120);
const description = z.string().trim().max(2000);

export const chatbot = z.object({
  id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  description: z.string(),
  type: chatbotType,
  is_published: z.boolean(),
  /** Published, then saved with changes since (its config version is past the published one). */
  has_unpublished_changes: z.boolean(),
  /** Simple chatbots: what the assistant is told to be and do. */
  instruction: z.string(),
  model_id: z.string().nullable(),
  fallback_model_id: z.string().nullable(),
  knowledge_collection_ids: z.array(z.string()),
  /** Conversation analytics: true stores message content in logs; false stores metrics only. */
  store_conversations: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The workspace's name: given by GET /chatbots_for_user (the chat groups assistants by it). */
  workspace_name: z.string().optional(),
});
export type Chatbot = z.infer<typeof chatbot>;

export const chatbotAnswer = z.object({ chatbot });
export const chatbotsAnswer = z.object({ chatbots: z.array(chatbot) });

export const createChatbotBody = z
  .object({ workspace_id: uuid, name: chatbotName, description: description.optional(), type: chatbotType })
  .strict();
export const updateChatbotBody = z
  .object({ name: chatbotName.optional(), description: description.optional() })
  .strict();
export const duplicateChatbotBody = z.object({ chatbot_id: uuid, new_name: chatbotName.optional() }).strict();
export const chatbotsQuery = z.object({ workspace_id: uuid });

/** Save (and, with Save & Publish, then publish) a simple chatbot's settings. */
export const simpleConfigBody = z
  .object({
    name: chatbotName.optional(),
    description: description.optional(),
    instruction: z.string().max(100_000),
    model_id: uuid,
    fallback_model_id: uuid.nullable().optional(),
    knowledge_collection_ids: z.array(uuid).max(20).optional(),
    store_conversations: z.boolean().optional(),
  })
  .strict();
export type SimpleConfigBody = z.infer<typeof simpleConfigBody>;

/**
 * A chatflow's or workflow's graph as stored (chatbots.configuration, runs.configuration): a draft
 * may hold nodes that do not validate yet, so the nodes and edges are not parsed here.
 */
export const flowConfiguration = z.object({ nodes: z.array(z.unknown()), edges: z.array(z.unknown()) });
export type FlowConfiguration = z.infer<typeof flowConfiguration>;

/** Graph configuration of chatflows and workflows; simple chatbots answer an empty one. */
export const chatbotConfig = z.object({
  chatbot_id: z.string(),
  workspace_id: z.string(),
  is_published: z.boolean(),
  has_unpublished_changes: z.boolean(),
  configuration: flowConfiguration,
});
export const chatbotConfigAnswer = z.object({ config: chatbotConfig });

export const chatbotUserParams = z.object({ id: uuid, userId: uuid }).strict();
export const chatbotUsersAnswer = z.object({ user_ids: z.array(z.string()) });
