export * from './errors';
export * from './events/event-log';
export { createMemoryEventLog } from './events/memory-event-log';
export { createRedisEventLog } from './events/redis-event-log';
export * from './runs/cancel-bus';
export * from './bus/broadcast';
export * from './cache/shared-cache';
export * from './queue/run-queue';
export { createInProcessQueue } from './queue/in-process-queue';
export { createLocalFirstQueue, createRunSlots, type RunSlots } from './queue/local-first-queue';
export { createBullmqQueue, startRunWorker } from './queue/bullmq-queue';
export * from './conversations/record-message';
export { createRuntime, RUNNER_SHUT_DOWN, type Runtime, type RuntimeOptions } from './runtime';
export { createRunExecutor, RUNNER_STOPPED } from './runs/execute-run';
export { EVENT_COALESCE_MS } from './runs/event-batches';
export { createFlowConfigs, type ConfigToStore, type FlowConfigs } from './runs/flow-configs';
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
export { queuePosition, queueStats, reapDeadRuns, requeueLostRuns } from './runs/reaper';
export {
  beatEvery,
  createRunLocks,
  DEFAULT_RUN_LOCK_MS,
  RECOVERY_BOUND_MS,
  sweepEvery,
} from './runs/run-lock';
export type { Presence, RunnerInfo } from './queue/presence';
export { QUEUE_UNAVAILABLE } from './queue/bullmq-queue';
export { createEngineServices, type RunScope } from './runs/engine-services';
export { groupCommit, isolating, oneAtATimePer, readTogether } from './group-commit';
