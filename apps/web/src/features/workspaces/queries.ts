import type { Role, User, Workspace } from '@atelier/schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { useAppStore } from '@/stores/app-store';

export type Member = User & { workspace_role_id: string };

/** Loads the workspaces and applies the selection rules (spec section 4). */
export async function loadWorkspaces(): Promise<Workspace[]> {
  const { workspaces } = await api.get<{ workspaces: Workspace[] }>('/workspaces');
  useAppStore.getState().setWorkspaces(workspaces);
  return workspaces;
}

export const createWorkspace = (name: string) =>
  api.post<{ workspace_id: string }>('/workspaces', { name }).then((r) => r.workspace_id);
export const renameWorkspace = (id: string, name: string) => api.put(`/workspaces/${id}`, { name });
export const deleteWorkspace = (id: string) => api.del(`/workspaces/${id}`);

export const useWorkspaceRoles = () =>
  useQuery({
    queryKey: ['workspace_roles'],
    queryFn: async () => (await api.get<{ workspace_roles: Role[] }>('/workspace_roles')).workspace_roles,
    staleTime: Infinity,
  });

export const membersKey = (workspaceId: string) => ['workspaces', workspaceId, 'members'] as const;
export const useMembers = (workspaceId: string, enabled: boolean) =>
  useQuery({
    queryKey: membersKey(workspaceId),
    queryFn: async () => (await api.get<{ users: Member[] }>(`/users/workspace/${workspaceId}`)).users,
    enabled,
  });

export const useOrganizationUsers = (enabled: boolean) =>
  useQuery({
    queryKey: ['users'],
    queryFn: async () => (await api.get<{ users: User[] }>('/users')).users,
    enabled,
  });

export const addMember = (workspaceId: string, userId: string, roleId: string) =>
  api.post('/user_workspace_roles/', {
    user_id: userId,
    workspace_id: workspaceId,
    workspace_role_id: roleId,
  });
export const changeMemberRole = (workspaceId: string, userId: string, roleId: string) =>
  api.put(`/user_workspace_roles/${userId}/${workspaceId}`, { workspace_role_id: roleId });
export const removeMember = (workspaceId: string, userId: string) =>
  api.del(`/user_workspace_roles/${userId}/${workspaceId}`);
