import type { Graph } from './graph-ops';

export const HISTORY_LIMIT = 100;

/** Undo and redo as two stacks of whole graphs (nodes are shared between snapshots, so they are cheap). */
export interface History {
  past: Graph[];
  future: Graph[];
  /** The key of the last recorded edit: typing in one field coalesces into one step. */
  lastKey: string | null;
}

export const emptyHistory = (): History => ({ past: [], future: [], lastKey: null });

/** Records `before` as a step, unless it continues the same edit (same non-null key). */
export function record(history: History, before: Graph, key: string | null = null): History {
  if (key !== null && key === history.lastKey) return { ...history, future: [] };
  return { past: [...history.past, before].slice(-HISTORY_LIMIT), future: [], lastKey: key };
}

export function undo(history: History, current: Graph): { history: History; graph: Graph } | null {
  const previous = history.past.at(-1);
  if (!previous) return null;
  return {
    graph: previous,
    history: { past: history.past.slice(0, -1), future: [current, ...history.future], lastKey: null },
  };
}

export function redo(history: History, current: Graph): { history: History; graph: Graph } | null {
  const next = history.future[0];
  if (!next) return null;
  return {
    graph: next,
    history: { past: [...history.past, current], future: history.future.slice(1), lastKey: null },
  };
}
