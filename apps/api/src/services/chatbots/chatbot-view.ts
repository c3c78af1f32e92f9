import type { chatbots } from '@atelier/db';
import type { Chatbot } from '@atelier/schemas';

export type ChatbotRow = typeof chatbots.$inferSelect;

export function toChatbot(row: ChatbotRow): Chatbot {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    name: row.name,
    description: row.description,
    type: row.type,
    is_published: row.isPublished,
    has_unpublished_changes: row.isPublished && (row.publishedVersion ?? 0) < row.configVersion,
    instruction: row.instruction,
    model_id: row.modelId,
    fallback_model_id: row.fallbackModelId,
    knowledge_collection_ids: row.knowledgeCollectionIds,
    store_conversations: row.storeConversations,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
