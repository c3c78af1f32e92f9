import { users, type Db } from '@atelier/db';
import type { AppRoleId } from '@atelier/schemas';
import type { SharedCache } from '@atelier/runtime';
import { eq, sql } from 'drizzle-orm';

/** What authentication needs of a user's row on every request. */
export interface AuthUser {
  id: string;
  organizationId: string;
  role: AppRoleId;
  email: string;
  tokenVersion: number;
}

/**
 * The user rows every authenticated request checks (role, token version, existence), kept in the
 * runtime's shared cache. Whoever changes one of these columns or deletes a user calls `forget`, which
 * drops the row in every process (Redis pub/sub), so a changed role, a logout or a deleted user still
 * takes effect on the next request.
 */
export function createUserRows(db: Db, cache: SharedCache<AuthUser>) {
  const byId = db
    .select({
      id: users.id,
      organizationId: users.organizationId,
      role: users.userRoleId,
      email: users.email,
      tokenVersion: users.tokenVersion,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('auth_user_by_id');
  return {
    get: (id: string): Promise<AuthUser | null> =>
      cache.get(id, async () => (await byId.execute({ id }))[0] ?? null),
    forget: (id: string): Promise<void> => cache.invalidate(id),
  };
}

export type UserRows = ReturnType<typeof createUserRows>;
