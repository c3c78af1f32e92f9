import type { AppRoleId, Language } from '@atelier/schemas';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { applicationRoles } from './roles';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /**
     * Stored lower-cased; unique within an organization. The same person may have accounts in
     * several organizations; login tells them apart by password (see the API README).
     */
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    jobTitle: text('job_title').notNull().default(''),
    /** Null until the invited user completes onboarding. */
    passwordHash: text('password_hash'),
    userRoleId: text('user_role_id')
      .$type<AppRoleId>()
      .notNull()
      .references(() => applicationRoles.id),
    languagePreference: text('language_preference').$type<Language>().notNull().default('en'),
    /**
     * Carried in every access token (`ver`); bumping it (logout, password change or reset) makes
     * the user's outstanding access tokens answer 401 token_revoked.
     */
    tokenVersion: integer('token_version').notNull().default(0),
    /** Last successful password login; picks the account when one password opens several. */
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_organization_email_unique').on(t.organizationId, sql`lower(${t.email})`),
    index('users_email_idx').on(sql`lower(${t.email})`),
    index('users_organization_idx').on(t.organizationId),
  ],
);
