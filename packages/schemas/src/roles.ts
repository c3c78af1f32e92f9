import { z } from 'zod';
import { appRoleIds, workspaceRoleIds } from './constants';

export const appRoleId = z.enum(appRoleIds);
export const workspaceRoleId = z.enum(workspaceRoleIds);

export const role = z.object({ id: z.string(), name: z.string(), description: z.string() });
export type Role = z.infer<typeof role>;

export const userRolesAnswer = z.object({ user_roles: z.array(role) });
export const workspaceRolesAnswer = z.object({ workspace_roles: z.array(role) });
