import type { ModelAccess } from '@atelier/metering';
import { users, userWorkspaceRoles, workspaceRoles, workspaces, type Db } from '@atelier/db';
import type { AppRoleId, Role, Workspace, WorkspaceRoleId } from '@atelier/schemas';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { conflict, forbidden, notFound } from '../errors';
import { toUser } from '../users/user-view';

type WorkspaceRow = typeof workspaces.$inferSelect;

function toWorkspace(row: WorkspaceRow, role: WorkspaceRoleId | null): Workspace {
  return {
    id: row.id,
    name: row.name,
    workspace_role_id: role,
    created_at: row.createdAt.toISOString(),
  };
}

/** The one rule for who builds in a workspace (the matrix is in the API README). */
export function canBuild(appRole: AppRoleId, workspaceRole: WorkspaceRoleId | string | null): boolean {
  if (appRole === 'admin') return true;
  return appRole === 'creator' && (workspaceRole === 'admin' || workspaceRole === 'editor');
}

/**
 * Workspaces belong to an organization. Organization admins see and manage all of them; everyone
 * else sees the workspaces they are a member of, and their workspace role decides what they may do.
 */
export function createWorkspacesService(deps: {
  db: Db;
  /** Told when a workspace (and its models) is deleted. */
  modelAccess: Pick<ModelAccess, 'forget'>;
}) {
  const { db } = deps;

  /** The workspace and the caller's role in it; 404 when it is not visible to the caller. */
  async function visible(principal: Principal, id: string) {
    const [row] = await db
      .select({ workspace: workspaces, role: userWorkspaceRoles.workspaceRoleId })
      .from(workspaces)
      .leftJoin(
        userWorkspaceRoles,
        and(
          eq(userWorkspaceRoles.workspaceId, workspaces.id),
          eq(userWorkspaceRoles.userId, principal.userId),
        ),
      )
      .where(and(eq(workspaces.id, id), eq(workspaces.organizationId, principal.organizationId)))
      .limit(1);
    if (!row || (principal.role !== 'admin' && row.role === null)) throw notFound('workspace');
    return row;
  }

  /**
   * Building in a workspace (providers, models, chatbots, and running drafts or models, which spend
   * the organization's credits): organization admins, and builders who are its admins or editors.
   */
  async function assertCanBuild(principal: Principal, id: string, what: string) {
    const row = await visible(principal, id);
    if (!canBuild(principal.role, row.role)) {
      throw forbidden(`Only editors and administrators of this workspace can ${what}.`);
    }
    return row;
  }

  /** Rename and delete: organization admins and workspace admins. */
  async function assertCanAdminister(principal: Principal, id: string) {
    const row = await visible(principal, id);
    if (principal.role !== 'admin' && row.role !== 'admin') {
      throw forbidden('Only an administrator of this workspace can change it.');
    }
    return row;
  }

  /** Members and sharing: organization admins, and creators who administer the workspace. */
  async function assertCanManageMembers(principal: Principal, id: string) {
    const row = await visible(principal, id);
    const allowed = principal.role === 'admin' || (principal.role === 'creator' && row.role === 'admin');
    if (!allowed) throw forbidden('Only an administrator of this workspace can manage its members.');
    return row;
  }

  /**
   * A workspace admin who is not an organization admin keeps their own admin role: giving it up (or
   * leaving) would lock them out of the members they manage. Organization admins manage every workspace.
   */
  function assertKeepsOwnAdmin(principal: Principal, userId: string, nextRole: WorkspaceRoleId | null) {
    if (userId !== principal.userId || principal.role === 'admin' || nextRole === 'admin') return;
    throw conflict(
      'own_admin_access',
      'You cannot remove your own administrator access to this workspace; ask another administrator to do it.',
    );
  }

  async function assertUserInOrg(principal: Principal, userId: string) {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.organizationId, principal.organizationId)))
      .limit(1);
    if (!row) throw notFound('user');
  }

  return {
    visible,
    assertCanBuild,

    /** The workspace roles (reference data), highest rank first. */
    async roles(): Promise<Role[]> {
      const rows = await db.select().from(workspaceRoles).orderBy(desc(workspaceRoles.rank));
      return rows.map(({ id, name, description }) => ({ id, name, description }));
    },

    async list(principal: Principal): Promise<Workspace[]> {
      const linked = and(
        eq(userWorkspaceRoles.workspaceId, workspaces.id),
        eq(userWorkspaceRoles.userId, principal.userId),
      );
      const base = db
        .select({ workspace: workspaces, role: userWorkspaceRoles.workspaceRoleId })
        .from(workspaces);
      const rows =
        principal.role === 'admin'
          ? await base
              .leftJoin(userWorkspaceRoles, linked)
              .where(eq(workspaces.organizationId, principal.organizationId))
              .orderBy(asc(workspaces.createdAt), asc(workspaces.id))
          : await base
              .innerJoin(userWorkspaceRoles, linked)
              .where(eq(workspaces.organizationId, principal.organizationId))
              .orderBy(asc(workspaces.createdAt), asc(workspaces.id));
      return rows.map((r) => toWorkspace(r.workspace, r.role));
    },

    /** The creator becomes the workspace's first admin. */
    async create(principal: Principal, name: string): Promise<string> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(workspaces)
          .values({ organizationId: principal.organizationId, name })
          .returning({ id: workspaces.id });
        if (!row) throw new Error('insert returned nothing');
        await tx
          .insert(userWorkspaceRoles)
          .values({ userId: principal.userId, workspaceId: row.id, workspaceRoleId: 'admin' });
        return row.id;
      });
    },

    async rename(principal: Principal, id: string, name: string): Promise<void> {
      await assertCanAdminister(principal, id);
      await db
        .update(workspaces)
        .set({ name })
        .where(and(eq(workspaces.id, id), eq(workspaces.organizationId, principal.organizationId)));
    },

    async remove(principal: Principal, id: string): Promise<void> {
      await assertCanAdminister(principal, id);
      await db
        .delete(workspaces)
        .where(and(eq(workspaces.id, id), eq(workspaces.organizationId, principal.organizationId)));
      await deps.modelAccess.forget(null);
    },

    async members(principal: Principal, id: string) {
      await visible(principal, id);
      const rows = await db
        .select({ user: users, role: userWorkspaceRoles.workspaceRoleId })
        .from(userWorkspaceRoles)
        .innerJoin(users, eq(users.id, userWorkspaceRoles.userId))
        .where(
          and(eq(userWorkspaceRoles.workspaceId, id), eq(users.organizationId, principal.organizationId)),
        )
        .orderBy(asc(users.email));
      return rows.map((r) => ({ ...toUser(r.user), workspace_role_id: r.role }));
    },

    async addMember(principal: Principal, workspaceId: string, userId: string, role: WorkspaceRoleId) {
      await assertCanManageMembers(principal, workspaceId);
      await assertUserInOrg(principal, userId);
      const inserted = await db
        .insert(userWorkspaceRoles)
        .values({ userId, workspaceId, workspaceRoleId: role })
        .onConflictDoNothing()
        .returning({ userId: userWorkspaceRoles.userId });
      if (inserted.length === 0) {
        throw conflict('already_member', 'This user already has a role in this workspace.');
      }
    },

    async changeMemberRole(principal: Principal, workspaceId: string, userId: string, role: WorkspaceRoleId) {
      await assertCanManageMembers(principal, workspaceId);
      assertKeepsOwnAdmin(principal, userId, role);
      const updated = await db
        .update(userWorkspaceRoles)
        .set({ workspaceRoleId: role })
        .where(and(eq(userWorkspaceRoles.workspaceId, workspaceId), eq(userWorkspaceRoles.userId, userId)))
        .returning({ userId: userWorkspaceRoles.userId });
      if (updated.length === 0) throw notFound('workspace member');
    },

    async removeMember(principal: Principal, workspaceId: string, userId: string) {
      await assertCanManageMembers(principal, workspaceId);
      assertKeepsOwnAdmin(principal, userId, null);
      const removed = await db
        .delete(userWorkspaceRoles)
        .where(and(eq(userWorkspaceRoles.workspaceId, workspaceId), eq(userWorkspaceRoles.userId, userId)))
        .returning({ userId: userWorkspaceRoles.userId });
      if (removed.length === 0) throw notFound('workspace member');
    },
  };
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
