import type { ProviderKind } from '@atelier/schemas';
import { boolean, index, integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { chatbots } from './chatbots';
import { conversations } from './conversations';
import { organizations } from './organizations';
import { models } from './providers';
import { users } from './users';

/** One row per model call of a chatbot: what analytics and logs are made of. */
export const inferenceLogs = pgTable(
  'inference_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id').notNull(),
    chatbotId: uuid('chatbot_id').references(() => chatbots.id, { onDelete: 'set null' }),
    chatbotName: text('chatbot_name').notNull(),
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The name of the API key the call was made through (public API); null for the app's own calls. */
    apiKeyName: text('api_key_name'),
    modelId: uuid('model_id').references(() => models.id, { onDelete: 'set null' }),
    modelName: text('model_name').notNull(),
    providerModelName: text('provider_model_name').notNull(),
    providerType: text('provider_type').$type<ProviderKind>().notNull(),
    /** Content fields stay empty when the chatbot stores metrics only. */
    completePrompt: text('complete_prompt').notNull().default(''),
    userMessage: text('user_message').notNull().default(''),
    response: text('response').notNull().default(''),
    requestWords: integer('request_words').notNull(),
    responseWords: integer('response_words').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    firstTokenMs: integer('first_token_ms'),
    totalMs: integer('total_ms').notNull(),
    streamed: boolean('streamed').notNull(),
    fallback: boolean('fallback').notNull().default(false),
    error: boolean('error').notNull().default(false),
    errorMessage: text('error_message').notNull().default(''),
    status: text('status', { enum: ['success', 'error'] }).notNull(),
    credits: numeric('credits', { precision: 14, scale: 4, mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Analytics: every read is a time range inside one scope (organization, workspace, user or
    // chatbot); `id` breaks ties for the logs' keyset paging on (created_at, id).
    index('inference_logs_org_created_idx').on(t.organizationId, t.createdAt, t.id),
    index('inference_logs_workspace_created_idx').on(t.workspaceId, t.createdAt, t.id),
    index('inference_logs_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('inference_logs_chatbot_created_idx').on(t.chatbotId, t.createdAt, t.id),
  ],
);
