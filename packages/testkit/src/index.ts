export * from './db';
