export * from './client';
export * from './private-files';
export * from './seed';
export * as tables from './tables';
export * from './tables';
export * from './storable';
export * from './statement';
