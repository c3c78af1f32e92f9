export * from './common';
export * from './password';
export * from './roles';
export * from './auth';
export * from './users';
export * from './workspaces';
export * from './credits';
export * from './health';
