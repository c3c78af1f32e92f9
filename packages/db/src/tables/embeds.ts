import { boolean, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { chatbots } from './chatbots';
import { organizations } from './organizations';
import { users } from './users';

/**
 * A chatbot's embeddable chat: whether it is on, the sites (exact origins) that may frame it and call
 * its embed routes, and its public token. The token is no secret (it sits in the embedding pages): it
 * reaches this one chatbot's embed routes only, and regenerating it retires the old one at once.
 */
export const chatbotEmbeds = pgTable(
  'chatbot_embeds',
  {
    chatbotId: uuid('chatbot_id')
      .primaryKey()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull().default(false),
    allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull().default([]),
    token: text('token').notNull(),
    /** The widget's first words and its input's placeholder; empty: the widget's own, translated. */
    greeting: text('greeting').notNull().default(''),
    placeholder: text('placeholder').notNull().default(''),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('chatbot_embeds_token_idx').on(t.token)],
);
