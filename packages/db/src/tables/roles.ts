import { integer, pgTable, text } from 'drizzle-orm/pg-core';

/** Application roles (admin, creator, user): reference data seeded on start. */
export const applicationRoles = pgTable('application_roles', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  rank: integer('rank').notNull(),
});

/** Workspace roles (admin, editor, viewer): reference data seeded on start. */
export const workspaceRoles = pgTable('workspace_roles', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  rank: integer('rank').notNull(),
});
