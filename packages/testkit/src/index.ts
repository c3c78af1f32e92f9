export * from './db';
export * from './fake-provider';
