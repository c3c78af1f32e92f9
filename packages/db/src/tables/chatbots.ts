import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { FlowConfiguration } from '@atelier/schemas';
import { chatbotTypes } from '@atelier/schemas/constants';
import { organizations } from './organizations';
import { models } from './providers';
import { users } from './users';
import { workspaces } from './workspaces';

/**
 * What end users chat with: the chatbot's settings as they were when it was last published. The editor
 * works on the row's own (draft) settings; saving never changes a published chatbot's answers until it
 * is published again.
 */
export interface PublishedSettings {
  instruction: string;
  modelId: string | null;
  fallbackModelId: string | null;
  knowledgeCollectionIds: string[];
  storeConversations: boolean;
  configuration: FlowConfiguration;
}

export const chatbots = pgTable(
  'chatbots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    type: text('type', { enum: chatbotTypes }).notNull(),
    isPublished: boolean('is_published').notNull().default(false),
    instruction: text('instruction').notNull().default(''),
    modelId: uuid('model_id').references(() => models.id, { onDelete: 'set null' }),
    fallbackModelId: uuid('fallback_model_id').references(() => models.id, { onDelete: 'set null' }),
    knowledgeCollectionIds: jsonb('knowledge_collection_ids').$type<string[]>().notNull().default([]),
    /** Conversation analytics: store message content in logs (true) or metrics only (false). */
    storeConversations: boolean('store_conversations').notNull().default(true),
    configuration: jsonb('configuration')
      .$type<FlowConfiguration>()
      .notNull()
      .default({ nodes: [], edges: [] }),
    configVersion: integer('config_version').notNull().default(1),
    /**
     * The config version last published (null: never). A published chatbot saved since (a higher
     * config_version) has unpublished changes.
     */
    publishedVersion: integer('published_version'),
    /** The settings of `published_version` (null: never published, or unpublished). */
    published: jsonb('published').$type<PublishedSettings>(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chatbots_workspace_idx').on(t.workspaceId)],
);

/** Explicit per-user grants: users who are not builders chat only with the chatbots granted to them. */
export const chatbotAccess = pgTable(
  'chatbot_access',
  {
    chatbotId: uuid('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.userId] }), index('chatbot_access_user_idx').on(t.userId)],
);
