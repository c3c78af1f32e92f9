import type { WorkspaceRoleId } from '@atelier/schemas';
import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { workspaceRoles } from './roles';
import { users } from './users';

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('workspaces_organization_idx').on(t.organizationId)],
);

export const userWorkspaceRoles = pgTable(
  'user_workspace_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    workspaceRoleId: text('workspace_role_id')
      .$type<WorkspaceRoleId>()
      .notNull()
      .references(() => workspaceRoles.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.workspaceId] }),
    index('user_workspace_roles_workspace_idx').on(t.workspaceId),
  ],
);
