import type { FlowStreamEvent, RunDetail, RunNodeExecution } from '@atelier/schemas';
import type { NodeExecutionStatus, RunStatus } from '@atelier/schemas/constants';

export type RunViewStatus = 'idle' | RunStatus;
/** A node's status in the shown run, as the run's events tell it. */
export type NodeRunStatus = NodeExecutionStatus;

/** What the editor shows of the live or inspected run. */
export interface RunState {
  runId: string | null;
  status: RunViewStatus;
  nodeStatus: Record<string, NodeRunStatus>;
  /** Per node id; a node inside an iteration has one per item. */
  executions: Record<string, RunNodeExecution[]>;
  /** Labels and types from node_started, in the order nodes started (the progress list). */
  nodes: { id: string; label: string; type: string }[];
  /** Streamed model text per node, while the run goes on. */
  streamedText: Record<string, string>;
  selectedExecutionNodeId: string | null;
  finalOutput: string | null;
  outputs: Record<string, unknown> | null;
  error: string | null;
  lastEventId: string | null;
}

export const initialRunState = (): RunState => ({
  runId: null,
  status: 'idle',
  nodeStatus: {},
  executions: {},
  nodes: [],
  streamedText: {},
  selectedExecutionNodeId: null,
  finalOutput: null,
  outputs: null,
  error: null,
  lastEventId: null,
});

/**
 * Orders event ids: the in-process log numbers them, Redis streams use `ms-seq`. Both compare part
 * by part as numbers; anything else falls back to text order.
 */
export function compareEventIds(a: string, b: string): number {
  const pa = a.split('-').map(Number);
  const pb = b.split('-').map(Number);
  if (pa.some(Number.isNaN) || pb.some(Number.isNaN)) return a < b ? -1 : a > b ? 1 : 0;
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** One execution per iteration index: a replayed event replaces its earlier copy instead of adding one. */
function withExecution(list: RunNodeExecution[] = [], execution: RunNodeExecution): RunNodeExecution[] {
  const rest = list.filter((e) => e.iteration_index !== execution.iteration_index);
  return [...rest, execution].sort((a, b) => (a.iteration_index ?? -1) - (b.iteration_index ?? -1));
}

/** A node that failed on any item stays failed; skipped only when nothing ran. */
function settledStatus(list: RunNodeExecution[]): NodeRunStatus {
  if (list.some((e) => e.status === 'failed')) return 'failed';
  if (list.length > 0 && list.every((e) => e.status === 'skipped')) return 'skipped';
  return 'succeeded';
}

const errorMessage = (error: string | { message: string }) =>
  typeof error === 'string' ? error : error.message;

/** Nodes still shown running when the run ends did not finish: they lose their status. */
function dropRunning(nodeStatus: RunState['nodeStatus']): RunState['nodeStatus'] {
  return Object.fromEntries(Object.entries(nodeStatus).filter(([, s]) => s !== 'running'));
}

/**
 * Folds one run event into the state. An event whose id is not after the last one applied (a
 * duplicate, or one arriving out of order after a re-attach) is ignored; events without an id are
 * always applied. `now` stamps executions, whose events carry no start time.
 */
export function runReducer(
  state: RunState,
  event: FlowStreamEvent,
  eventId?: string,
  now: string = new Date().toISOString(),
): RunState {
  if (eventId !== undefined && state.lastEventId !== null && compareEventIds(eventId, state.lastEventId) <= 0)
    return state;
  const next: RunState = eventId === undefined ? { ...state } : { ...state, lastEventId: eventId };
  switch (event.type) {
    case 'run_started':
      return { ...next, runId: event.run_id, status: 'running' };
    case 'node_started': {
      const known = next.nodes.some((n) => n.id === event.node_id);
      return {
        ...next,
        status: 'running',
        nodeStatus: { ...next.nodeStatus, [event.node_id]: 'running' },
        nodes: known
          ? next.nodes
          : [...next.nodes, { id: event.node_id, label: event.label, type: event.node_type }],
      };
    }
    case 'node_completed':
    case 'node_error': {
      const failed = event.type === 'node_error';
      const execution: RunNodeExecution = {
        node_id: event.node_id,
        node_type: event.node_type,
        iteration_index: event.iteration_index,
        status: failed ? 'failed' : 'succeeded',
        error: failed ? event.error : null,
        duration_seconds: event.duration_seconds,
        parameters: null,
        outputs: failed ? {} : event.outputs,
        started_at: now,
      };
      const list = withExecution(next.executions[event.node_id], execution);
      return {
        ...next,
        executions: { ...next.executions, [event.node_id]: list },
        nodeStatus: { ...next.nodeStatus, [event.node_id]: settledStatus(list) },
      };
    }
    case 'node_skipped':
      return { ...next, nodeStatus: { ...next.nodeStatus, [event.node_id]: 'skipped' } };
    case 'sources':
      // The chat shows them under its answer; here the retrieve node's outputs hold them.
      return next;
    case 'text':
      return {
        ...next,
        streamedText: {
          ...next.streamedText,
          [event.node_id]: (next.streamedText[event.node_id] ?? '') + event.text,
        },
      };
    case 'execution_completed':
      return {
        ...next,
        status: 'succeeded',
        finalOutput: event.final_output,
        outputs: event.outputs,
        error: null,
        nodeStatus: dropRunning(next.nodeStatus),
      };
    case 'execution_error':
      return {
        ...next,
        // The event's status says whether the run failed or was cancelled.
        status: event.status === 'cancelled' ? 'cancelled' : 'failed',
        error: errorMessage(event.error),
        nodeStatus: dropRunning(next.nodeStatus),
      };
    case 'heartbeat':
      return state;
  }
}

/** The state of a run read from the API: statuses and executions from its node executions. */
export function stateFromDetail(detail: RunDetail): RunState {
  const executions: Record<string, RunNodeExecution[]> = {};
  const ordered = [...detail.node_executions].sort((a, b) => a.started_at.localeCompare(b.started_at));
  for (const execution of ordered) {
    executions[execution.node_id] = withExecution(executions[execution.node_id], execution);
  }
  const nodeStatus: Record<string, NodeRunStatus> = {};
  for (const [id, list] of Object.entries(executions)) nodeStatus[id] = settledStatus(list);
  const nodes: RunState['nodes'] = [];
  for (const e of ordered) {
    if (!nodes.some((n) => n.id === e.node_id))
      nodes.push({ id: e.node_id, label: e.node_id, type: e.node_type });
  }
  return {
    ...initialRunState(),
    runId: detail.id,
    status: detail.status,
    nodeStatus,
    executions,
    nodes,
    finalOutput: detail.final_output,
    outputs: detail.outputs,
    error: detail.error,
  };
}
