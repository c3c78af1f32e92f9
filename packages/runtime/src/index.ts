export * from './errors';
export * from './events/event-log';
export { createMemoryEventLog } from './events/memory-event-log';
export { createRedisEventLog } from './events/redis-event-log';
export * from './runs/cancel-bus';
export * from './queue/run-queue';
export { createInProcessQueue } from './queue/in-process-queue';
export { createBullmqQueue, startRunWorker } from './queue/bullmq-queue';
export * from './conversations/record-message';
export { createRuntime, type Runtime, type RuntimeOptions } from './runtime';
export { createRunExecutor, RUNNER_STOPPED, RUN_HEARTBEAT_MS } from './runs/execute-run';
export {
  canTransition,
  createRunLifecycle,
  RUN_CANCELLED,
  RUN_TRANSITIONS,
  sourcesOf,
  terminalEvent,
  terminalEventOf,
  UNSTORABLE_RESULT,
  type RunLifecycle,
  type RunOutcome,
} from './runs/lifecycle';
export { reapDeadRuns, STALE_RUN_MS } from './runs/reaper';
export { createEngineServices, type RunScope } from './runs/engine-services';
export { groupCommit } from './runs/run-writes';
