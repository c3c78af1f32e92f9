export * from './organizations';
export * from './roles';
export * from './users';
export * from './workspaces';
export * from './tokens';
export * from './credits';
export * from './page-views';
export * from './providers';
