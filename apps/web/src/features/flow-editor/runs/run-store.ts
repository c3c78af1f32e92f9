// TEMPORARY until the runs branch merges (replaced by its run-store.ts).
import { create } from 'zustand';

type Status = 'running' | 'succeeded' | 'failed' | 'skipped';
interface RunState {
  nodeStatus: Record<string, Status>;
  selectedExecutionNodeId: string | null;
  selectExecution(id: string | null): void;
  clearSelectedExecution(): void;
}
export const useRunStore = create<RunState>()((set) => ({
  nodeStatus: {},
  selectedExecutionNodeId: null,
  selectExecution: (id) => set({ selectedExecutionNodeId: id }),
  clearSelectedExecution: () => set({ selectedExecutionNodeId: null }),
}));
