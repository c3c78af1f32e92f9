/** The run half of the chatflow and workflow editor: what the editor mounts and calls. */
export { ChatModal, type ChatModalProps } from './chat-modal';
export { ExecutionPanel, type ExecutionNames } from './execution-panel';
export { NodeRunBadge } from './node-run-badge';
export { runsKey, useRuns } from './queries';
export {
  cancelRun,
  createRunClient,
  getRun,
  listRuns,
  openRun,
  resumeActiveRun,
  startTestRun,
  stopFollowing,
  type RunClient,
  type RunSink,
} from './run-client';
export { RunModal, type FlowDraft, type RunModalProps } from './run-modal';
export { runReducer, type NodeRunStatus, type RunState, type RunViewStatus } from './run-reducer';
export { useRunStore, type RunActions } from './run-store';
export { RunsList, type RunsListProps } from './runs-list';
export { StatusBadge, STATUS_CLASSES } from './status-badge';
