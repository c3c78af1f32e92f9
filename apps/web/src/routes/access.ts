import { ADMINS, ALL_ROLES as ALL, type AppRoleId, BUILDERS } from '@atelier/schemas/constants';

/** The role sets, the same the API's routes declare. */
export { ADMINS, ALL, BUILDERS };

/** Route guard (spec section 4): no role goes to /login; a role outside the list to /forbidden. */
export function guard(
  role: AppRoleId | null | undefined,
  allowed: readonly AppRoleId[],
): 'ok' | '/login' | '/forbidden' {
  if (!role) return '/login';
  return allowed.includes(role) ? 'ok' : '/forbidden';
}

/** The main navigation and who sees each item (spec section 2). */
export const NAV_ITEMS = [
  { key: 'menu.providers', to: '/providers', roles: BUILDERS, beta: false },
  { key: 'menu.knowledges', to: '/knowledges', roles: BUILDERS, beta: false },
  { key: 'menu.studio', to: '/studio', roles: BUILDERS, beta: false },
  { key: 'menu.internalChat', to: '/chat', roles: ALL, beta: true },
  { key: 'menu.analytics', to: '/analytics', roles: ALL, beta: false },
] as const;

export const navItemsFor = (role: AppRoleId) => NAV_ITEMS.filter((item) => item.roles.includes(role));

/**
 * Settings (edit, members, share, delete) of the selected workspace: organization admins always,
 * everyone else as workspace admin. Members and Share open their modals for admin and creator only.
 */
export function workspacePermissions(role: AppRoleId, workspaceRole: string | null) {
  const settings = role === 'admin' || workspaceRole === 'admin';
  return {
    create: BUILDERS.includes(role),
    settings,
    editOrDelete: settings,
    membersAndShare: settings && BUILDERS.includes(role),
  };
}
