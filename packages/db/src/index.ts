export * from './client';
export * from './seed';
export * as tables from './tables';
export * from './tables';
