export * from './types';
export * from './errors';
export * from './kinds';
export * from './registry';
export * from './fallback';
export * from './metering';
export { readSse } from './sse';
export { usageOrCount as countUsage } from './tokens';
