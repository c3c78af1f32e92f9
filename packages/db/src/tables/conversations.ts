import type { ChatbotType, MessagePart } from '@atelier/schemas';
import { messageFeedbacks, messageRoles } from '@atelier/schemas/constants';
import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { apiKeys } from './api-keys';
import { chatbots } from './chatbots';
import { organizations } from './organizations';
import { users } from './users';

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The member of the organization who chats; null for an end user of the public API. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The public API's end users: the key the conversation was started with, and the `user` string. */
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'cascade' }),
    endUser: text('end_user'),
    /** Kept (null) when the chatbot is deleted, so the history stays readable. */
    chatbotId: uuid('chatbot_id').references(() => chatbots.id, { onDelete: 'set null' }),
    chatbotType: text('chatbot_type').$type<ChatbotType>().notNull(),
    title: text('title').notNull().default(''),
    lastMessagePreview: text('last_message_preview').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('conversations_user_updated_idx').on(t.userId, t.updatedAt),
    index('conversations_api_key_user_idx').on(t.apiKeyId, t.endUser, t.updatedAt),
    check('conversations_owner_check', sql`${t.userId} IS NOT NULL OR ${t.endUser} IS NOT NULL`),
    // Analytics: conversations started in a range, and those with messages in it (updated since).
    index('conversations_org_created_idx').on(t.organizationId, t.createdAt),
    index('conversations_org_updated_idx').on(t.organizationId, t.updatedAt),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: messageRoles }).notNull(),
    content: jsonb('content').$type<MessagePart[]>().notNull(),
    error: boolean('error').notNull().default(false),
    /** The person's rating of an answer (thumbs up or down), shown with its inference logs. */
    feedback: text('feedback', { enum: messageFeedbacks }),
    feedbackAt: timestamp('feedback_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_conversation_idx').on(t.conversationId, t.createdAt),
    check('messages_feedback_check', sql`${t.feedback} IN ('up', 'down')`),
  ],
);
