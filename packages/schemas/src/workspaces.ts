import { z } from 'zod';
import { name, uuid } from './common';
import { workspaceRoleId } from './roles';

export const workspace = z.object({
  id: z.string(),
  name: z.string(),
  /** The caller's role in this workspace; null for organization admins who are not members. */
  workspace_role_id: workspaceRoleId.nullable(),
  created_at: z.string(),
});
export type Workspace = z.infer<typeof workspace>;

export const workspacesAnswer = z.object({ workspaces: z.array(workspace) });
export const workspaceBody = z.object({ name: name(100) }).strict();
export const createWorkspaceAnswer = z.object({ workspace_id: z.string() });

export const userWorkspaceRoleBody = z
  .object({ user_id: uuid, workspace_id: uuid, workspace_role_id: workspaceRoleId })
  .strict();
export const userWorkspaceRoleParams = z.object({ user_id: uuid, workspace_id: uuid }).strict();
export const updateUserWorkspaceRoleBody = z.object({ workspace_role_id: workspaceRoleId }).strict();
