import { APPLICATION_ROLES, type users } from '@atelier/db';
import type { User } from '@atelier/schemas';

type UserRow = typeof users.$inferSelect;

const roleById = new Map(APPLICATION_ROLES.map((r) => [r.id, r]));

/** The API's view of a user: never the password hash. */
export function toUser(row: UserRow): User {
  const role = roleById.get(row.userRoleId) ?? APPLICATION_ROLES[2];
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    jobTitle: row.jobTitle,
    user_role_id: role.id,
    user_role: { id: role.id, name: role.name, description: role.description },
    organization_id: row.organizationId,
    language_preference: row.languagePreference,
    status: row.passwordHash ? 'active' : 'invited',
    created_at: row.createdAt.toISOString(),
  };
}
