export * from './errors';
export * from './credits';
export * from './pricing';
export * from './inference-log';
export * from './metered-call';
export * from './model-access';
export * from './secret-box';
