export * from './db';
export * from './fake-provider';
export * from './fake-jira';
