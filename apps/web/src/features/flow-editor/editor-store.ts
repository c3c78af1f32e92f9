import { type Chatbot, sourceHandlesOf } from '@atelier/schemas';
import { applyEdgeChanges, applyNodeChanges, type EdgeChange, type NodeChange } from '@xyflow/react';
import { create } from 'zustand';
import { type Clipboard, copySelection, paste } from './clipboard';
import {
  checkConnection,
  type ConnectRefusal,
  type Connection,
  connect,
  createNode,
  type EditorNode,
  type Graph,
  removeEdges,
  removeNodes,
  type EditorEdge,
} from './graph-ops';
import { emptyHistory, type History, record, redo, undo } from './history';
import { autoLayout } from './layout';
import { linkFor, type Placement } from './placement';
import { useRunStore } from './runs/run-store';
import { applyTemplate } from './template';

export interface FlowProblemView {
  node_id: string | null;
  field: string | null;
  code: string;
  message: string;
}

export interface NodePatch {
  label?: string;
  description?: string;
  fields?: EditorNode['data']['fields'];
  continueOnError?: boolean;
}

interface EditorState extends Graph {
  chatbot: Chatbot | null;
  /** The configuration is loaded (a template may be applied, the flow saved). */
  loaded: boolean;
  dirty: boolean;
  selectedNodeId: string | null;
  /** The problems the server found when publishing, per node; a node's clear when it is edited. */
  problems: FlowProblemView[];
  history: History;
  clipboard: Clipboard | null;
  dragging: boolean;
  /** Asks the canvas to fit the flow in view once its nodes are measured (see use-fit-flow). */
  fitRequest: number;
  fitDone: number;

  load(chatbot: Chatbot, graph: Graph): void;
  reset(): void;
  onNodesChange(changes: NodeChange<EditorNode>[]): void;
  onEdgesChange(changes: EdgeChange<EditorEdge>[]): void;
  connect(c: Connection): ConnectRefusal | null;
  addNode(type: string, position: { x: number; y: number }, parentId?: string): string;
  /** A node added by a click where `placeNewNode` put it, with its link: one undo step. */
  placeNode(type: string, placement: Placement): string;
  /** The flow laid out anew by dagre (one undo step), then fitted in view. */
  autoLayout(): void;
  requestFit(): void;
  updateNode(id: string, patch: NodePatch, key?: string): void;
  setGraph(graph: Graph): void;
  deleteNodes(ids: string[]): void;
  /** The selected nodes (with their edges and children) and the selected edges, as one step. */
  deleteSelection(): void;
  selectNode(id: string | null): void;
  copy(ids: string[]): boolean;
  paste(): string[];
  undo(): void;
  redo(): void;
  applyTemplate(id: string): void;
  markSaved(): void;
  setProblems(problems: FlowProblemView[]): void;
}

const graphOf = (s: Graph): Graph => ({ nodes: s.nodes, edges: s.edges });

const initial = {
  chatbot: null,
  nodes: [],
  edges: [],
  loaded: false,
  dirty: false,
  selectedNodeId: null,
  problems: [],
  history: emptyHistory(),
  clipboard: null,
  dragging: false,
  fitRequest: 0,
  fitDone: 0,
};

/** The flow being edited: its graph, selection, undo history and what publishing found. */
export const useEditorStore = create<EditorState>()((set, get) => {
  /** A change of the graph: one undo step (coalesced by key), marked unsaved. */
  const commit = (next: Graph, key: string | null = null, extra: Partial<EditorState> = {}) => {
    const s = get();
    if (next.nodes === s.nodes && next.edges === s.edges) return;
    set({ ...next, history: record(s.history, graphOf(s), key), dirty: true, ...extra });
  };

  return {
    ...initial,
    load: (chatbot, graph) =>
      set({ ...initial, chatbot, ...graph, loaded: true, fitRequest: graph.nodes.length > 0 ? 1 : 0 }),
    reset: () => set({ ...initial }),

    onNodesChange: (changes) => {
      const s = get();
      const removed = changes.flatMap((c) => (c.type === 'remove' ? [c.id] : []));
      if (removed.length > 0) {
        get().deleteNodes(removed);
        return;
      }
      const nodes = applyNodeChanges(changes, s.nodes);
      // A drag or a resize is one undo step, recorded when it starts.
      const gesture = (c: NodeChange<EditorNode>) =>
        c.type === 'position' ? c.dragging : c.type === 'dimensions' ? c.resizing : undefined;
      const changed = changes.some(
        (c) => (c.type === 'position' && c.position) || (c.type === 'dimensions' && c.resizing !== undefined),
      );
      const starts = !s.dragging && changes.some((c) => gesture(c) === true);
      const ends = changes.some((c) => gesture(c) === false);
      if (!changed) {
        set({ nodes });
        return;
      }
      set({
        nodes,
        dirty: true,
        dragging: starts ? !ends : ends ? false : s.dragging,
        history: starts || !s.dragging ? record(s.history, graphOf(s)) : s.history,
      });
    },

    onEdgesChange: (changes) => {
      const s = get();
      const removed = changes.flatMap((c) => (c.type === 'remove' ? [c.id] : []));
      if (removed.length > 0) {
        commit(removeEdges(graphOf(s), removed));
        return;
      }
      set({ edges: applyEdgeChanges(changes, s.edges) });
    },

    connect: (c) => {
      const s = get();
      const refusal = checkConnection(s, c);
      if (!refusal) commit(connect(graphOf(s), c));
      return refusal;
    },

    addNode: (type, position, parentId) => get().placeNode(type, { position, parentId }),

    placeNode: (type, placement) => {
      const s = get();
      const node = createNode(
        type,
        placement.position,
        new Set(s.nodes.map((n) => n.id)),
        placement.parentId,
      );
      const nodes = s.nodes.map((n) => (n.selected ? { ...n, selected: false } : n));
      let next: Graph = { nodes: [...nodes, { ...node, selected: true } as EditorNode], edges: s.edges };
      const link = linkFor(next, placement, node.id);
      if (link) next = connect(next, link);
      commit(next, null, { selectedNodeId: node.id });
      return node.id;
    },

    autoLayout: () => {
      const s = get();
      commit(autoLayout(graphOf(s)));
      get().requestFit();
    },

    requestFit: () => set((s) => ({ fitRequest: s.fitRequest + 1 })),

    updateNode: (id, patch, key) => {
      const s = get();
      const nodes = s.nodes.map((n) => (n.id === id ? { ...n, data: { ...n.data, ...patch } } : n));
      const problems = s.problems.filter((p) => p.node_id !== id);
      // A conditional that lost a branch loses the edges that left from it.
      const changed = nodes.find((n) => n.id === id);
      const handles = changed ? sourceHandlesOf(changed) : null;
      const edges = handles
        ? s.edges.filter(
            (e) => e.source !== id || (e.sourceHandle != null && handles.includes(e.sourceHandle)),
          )
        : s.edges;
      commit(
        { nodes, edges: edges.length === s.edges.length ? s.edges : edges },
        key ? `${id}:${key}` : null,
        {
          problems,
        },
      );
    },

    setGraph: (graph) => commit(graph),

    deleteNodes: (ids) => {
      const s = get();
      const next = removeNodes(graphOf(s), ids);
      const selectedNodeId = next.nodes.some((n) => n.id === s.selectedNodeId) ? s.selectedNodeId : null;
      commit(next, null, { selectedNodeId });
    },

    deleteSelection: () => {
      const s = get();
      const nodeIds = s.nodes.filter((n) => n.selected).map((n) => n.id);
      const edgeIds = s.edges.filter((e) => e.selected).map((e) => e.id);
      const next = removeEdges(removeNodes(graphOf(s), nodeIds), edgeIds);
      const selectedNodeId = next.nodes.some((n) => n.id === s.selectedNodeId) ? s.selectedNodeId : null;
      commit(next, null, { selectedNodeId });
    },

    selectNode: (id) => {
      set({ selectedNodeId: id });
      // Spec section 4: selecting a node clears the selected execution node.
      if (id !== null) useRunStore.getState().clearSelectedExecution();
    },

    copy: (ids) => {
      const clipboard = copySelection(get(), ids);
      if (clipboard) set({ clipboard });
      return clipboard !== null;
    },

    paste: () => {
      const s = get();
      if (!s.clipboard) return [];
      const { graph, pasted } = paste(graphOf(s), s.clipboard, { x: 40, y: 40 });
      const chosen = new Set(pasted);
      const nodes = graph.nodes.map((n) =>
        chosen.has(n.id)
          ? ({ ...n, selected: true } as EditorNode)
          : n.selected
            ? { ...n, selected: false }
            : n,
      );
      commit({ nodes, edges: graph.edges });
      // A second paste lands further away, not on top of the first.
      set({ clipboard: copySelection({ nodes, edges: graph.edges }, pasted) });
      return pasted;
    },

    undo: () => {
      const s = get();
      const step = undo(s.history, graphOf(s));
      if (step) set({ ...step.graph, history: step.history, dirty: true });
    },

    redo: () => {
      const s = get();
      const step = redo(s.history, graphOf(s));
      if (step) set({ ...step.graph, history: step.history, dirty: true });
    },

    applyTemplate: (id) => {
      const s = get();
      const graph = applyTemplate(s.loaded ? graphOf(s) : null, s.chatbot, id);
      commit(graph, null, { selectedNodeId: null, problems: [] });
      get().requestFit();
    },

    markSaved: () => set({ dirty: false }),
    setProblems: (problems) => set({ problems }),
  };
});

/** How many publish problems concern a node (each node subscribes to its own count). */
export const useProblemCount = (nodeId: string) =>
  useEditorStore((s) => s.problems.filter((p) => p.node_id === nodeId).length);
