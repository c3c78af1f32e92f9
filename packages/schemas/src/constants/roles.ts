/** Application and workspace roles, and the role sets access is declared with. */

/** Application roles, from most to least rights. */
export const appRoleIds = ['admin', 'creator', 'user'] as const;
export type AppRoleId = (typeof appRoleIds)[number];

/** Who may do what, by application role. */
export const ALL_ROLES: readonly AppRoleId[] = appRoleIds;
/** Admins and creators: providers, knowledge and the studio. */
export const BUILDERS: readonly AppRoleId[] = ['admin', 'creator'];
export const ADMINS: readonly AppRoleId[] = ['admin'];

export const workspaceRoleIds = ['admin', 'editor', 'viewer'] as const;
export type WorkspaceRoleId = (typeof workspaceRoleIds)[number];
