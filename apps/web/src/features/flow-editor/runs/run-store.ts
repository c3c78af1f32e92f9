import type { FlowStreamEvent, RunDetail } from '@atelier/schemas';
import { create } from 'zustand';
import { initialRunState, runReducer, stateFromDetail, type RunState } from './run-reducer';

export type { NodeRunStatus, RunState, RunViewStatus } from './run-reducer';

export interface RunActions {
  reset(): void;
  /** A new run is about to start: everything cleared, status queued (until run_started). */
  begin(): void;
  applyEvent(event: FlowStreamEvent, eventId?: string): void;
  /** A finished (or past) run from the API replaces what is shown. */
  loadRun(detail: RunDetail): void;
  /** A node's status badge was clicked: the execution panel shows that node. */
  selectExecution(nodeId: string | null): void;
  /** The editor calls this when a node is selected on the canvas. */
  clearSelectedExecution(): void;
  /** The run could not start or its stream was lost: shown as the run's error. */
  fail(message: string): void;
}

/**
 * The live or inspected run of the flow editor. Canvas nodes read `nodeStatus[id]` to colour
 * themselves; the modals and the execution panel read the rest.
 */
export const useRunStore = create<RunState & RunActions>()((set) => ({
  ...initialRunState(),
  reset: () => set(initialRunState()),
  begin: () => set({ ...initialRunState(), status: 'queued' }),
  applyEvent: (event, eventId) => set((state) => runReducer(state, event, eventId)),
  loadRun: (detail) =>
    set((state) => {
      const loaded = stateFromDetail(detail);
      // The same run, reloaded when its stream ended: keep the labels and streamed text it showed.
      if (state.runId !== detail.id)
        return { ...loaded, selectedExecutionNodeId: state.selectedExecutionNodeId };
      const seen = new Set(state.nodes.map((n) => n.id));
      return {
        ...loaded,
        nodes: [...state.nodes, ...loaded.nodes.filter((n) => !seen.has(n.id))],
        streamedText: state.streamedText,
        lastEventId: state.lastEventId,
        selectedExecutionNodeId: state.selectedExecutionNodeId,
      };
    }),
  selectExecution: (nodeId) => set({ selectedExecutionNodeId: nodeId }),
  clearSelectedExecution: () => set({ selectedExecutionNodeId: null }),
  fail: (message) =>
    set((state) => ({
      status: 'failed',
      error: message,
      nodeStatus: Object.fromEntries(Object.entries(state.nodeStatus).filter(([, s]) => s !== 'running')),
    })),
}));
