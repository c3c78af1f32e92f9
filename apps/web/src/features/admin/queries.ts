import type { AppRoleId, InvitationAnswer, Language, Role, User } from '@atelier/schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const usersKey = ['users'] as const;

export const useUsers = () =>
  useQuery({ queryKey: usersKey, queryFn: async () => (await api.get<{ users: User[] }>('/users')).users });

export const useUserRoles = () =>
  useQuery({
    queryKey: ['users', 'roles'],
    queryFn: async () => (await api.get<{ user_roles: Role[] }>('/users/roles')).user_roles,
    staleTime: Infinity,
  });

export interface UserForm {
  email: string;
  firstName: string;
  lastName: string;
  jobTitle: string;
  user_role_id: AppRoleId;
  language_preference: Language;
}

export const createUser = (form: UserForm) =>
  api.post<InvitationAnswer & { user_id: string }>('/users', form);
export const updateUser = (id: string, form: UserForm) => api.put(`/users/${id}`, form);
export const deleteUser = (id: string) => api.del(`/users/${id}`);
export const resendInvitation = (id: string) => api.post<InvitationAnswer>(`/users/${id}/invitation`);
