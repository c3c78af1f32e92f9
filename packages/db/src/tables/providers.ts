import type { ModelType, ProviderKind } from '@atelier/schemas';
import { index, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { workspaces } from './workspaces';

/** A model provider configured in a workspace. The API key is stored encrypted (AES-256-GCM). */
export const providers = pgTable(
  'providers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').$type<ProviderKind>().notNull(),
    /** Shown to builders; never holds credentials (they are taken out into the column below). */
    baseUrl: text('base_url'),
    /** `user:password` written into the base URL, sealed like the API key; null when there was none. */
    baseUrlUserinfoEncrypted: text('base_url_userinfo_encrypted'),
    settings: jsonb('settings').$type<Record<string, string>>().notNull().default({}),
    /** `v1.<iv>.<tag>.<ciphertext>` in base64url; null when the provider takes no key. */
    apiKeyEncrypted: text('api_key_encrypted'),
    /** The last four characters, for the masked hint shown to people. */
    apiKeyLast4: text('api_key_last4'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('providers_workspace_idx').on(t.workspaceId)],
);

const price = (column: string) =>
  numeric(column, { precision: 14, scale: 6, mode: 'number' }).notNull().default(0);

export const models = pgTable(
  'models',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    modelName: text('model_name').notNull(),
    modelType: text('model_type').$type<ModelType>().notNull(),
    description: text('description').notNull().default(''),
    inputPer1k: price('input_per_1k'),
    outputPer1k: price('output_per_1k'),
    perCall: price('per_call'),
    perImage: price('per_image'),
    perSecond: price('per_second'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('models_workspace_type_idx').on(t.workspaceId, t.modelType),
    index('models_provider_idx').on(t.providerId),
  ],
);
