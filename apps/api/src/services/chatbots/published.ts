import { chatbots, type PublishedSettings } from '@atelier/db';
import { sql } from 'drizzle-orm';
import type { ChatbotRow } from './chatbot-view';

// A published chatbot answers its end users (the chat page, embeds, the public API) with the settings
// it was published with; the editor (and its test runs) works on the draft. Never published: the draft.

/** The settings publishing freezes. */
export const publishedSettingsOf = (row: ChatbotRow): PublishedSettings => ({
  instruction: row.instruction,
  modelId: row.modelId,
  fallbackModelId: row.fallbackModelId,
  knowledgeCollectionIds: row.knowledgeCollectionIds,
  storeConversations: row.storeConversations,
  configuration: row.configuration,
});

/** The chatbot as its end users meet it: the published settings over the draft's. */
export function liveChatbot(row: ChatbotRow): ChatbotRow {
  if (!row.published) return row;
  return { ...row, ...row.published, configVersion: row.publishedVersion ?? row.configVersion };
}

/** In SQL, the model end users are answered by (for joins). */
export const liveModelId = sql`case when ${chatbots.published} is null then ${chatbots.modelId} else (${chatbots.published}->>'modelId')::uuid end`;
export const liveFallbackModelId = sql`case when ${chatbots.published} is null then ${chatbots.fallbackModelId} else (${chatbots.published}->>'fallbackModelId')::uuid end`;
