import { z } from 'zod';

export const appRoleIds = ['admin', 'creator', 'user'] as const;
export const appRoleId = z.enum(appRoleIds);
export type AppRoleId = z.infer<typeof appRoleId>;

export const workspaceRoleIds = ['admin', 'editor', 'viewer'] as const;
export const workspaceRoleId = z.enum(workspaceRoleIds);
export type WorkspaceRoleId = z.infer<typeof workspaceRoleId>;

export const role = z.object({ id: z.string(), name: z.string(), description: z.string() });
export type Role = z.infer<typeof role>;

export const userRolesAnswer = z.object({ user_roles: z.array(role) });
export const workspaceRolesAnswer = z.object({ workspace_roles: z.array(role) });
