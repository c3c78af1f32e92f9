import {
  edgeId,
  newNodeId,
  type NodeData,
  nodeDefinition,
  sourceHandlesOf,
  TOOLS_HANDLE,
} from '@atelier/schemas';
import type { Edge, Node } from '@xyflow/react';

/**
 * A node on the canvas: a configuration node as React Flow holds it (it adds selected, measured…; sizes
 * are numbers or absent, never null). serialize.ts converts at the edges.
 */
export type EditorNode = Node<NodeData, string> & { type: string };

/** An edge on the canvas (React Flow adds selected…); the handles are a branch or the agent's tools. */
export type EditorEdge = Edge;

/** The editor's graph: the configuration's nodes and edges. */
export interface Graph {
  nodes: EditorNode[];
  edges: EditorEdge[];
}

export interface Connection {
  source: string;
  target: string;
  sourceHandle?: string | null;
  targetHandle?: string | null;
}

/** Why an edge may not be drawn; the canvas refuses it and says so. */
export type ConnectRefusal =
  | 'unknown_node'
  | 'self'
  | 'output_ends'
  | 'input_starts'
  | 'different_scope'
  | 'branch_needed'
  | 'tools_only'
  | 'not_a_tool'
  | 'duplicate'
  | 'cycle';

export const ITERATION_SIZE = { width: 520, height: 300 };

/** A new node of a catalog type, with its defaults; inside an iteration when `parentId` is given. */
export function createNode(
  type: string,
  position: { x: number; y: number },
  taken: ReadonlySet<string>,
  parentId?: string,
): EditorNode {
  const def = nodeDefinition(type);
  if (!def) throw new Error(`Unknown node type "${type}".`);
  const node: EditorNode = {
    id: newNodeId(type, taken),
    type,
    position: { x: Math.round(position.x), y: Math.round(position.y) },
    data: {
      label: def.label,
      description: def.description,
      fields: structuredClone(def.defaults) as EditorNode['data']['fields'],
      outputs: [...def.outputs],
    },
  };
  if (def.isContainer) Object.assign(node, ITERATION_SIZE);
  if (parentId) Object.assign(node, { parentId, extent: 'parent' });
  return node;
}

const isToolEdge = (e: Pick<EditorEdge, 'targetHandle'>) => e.targetHandle === TOOLS_HANDLE;

/** Whether `ancestor` comes before `id` through the data edges of the graph. */
function reaches(edges: readonly EditorEdge[], from: string, to: string): boolean {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (isToolEdge(e)) continue;
    const list = next.get(e.source);
    if (list) list.push(e.target);
    else next.set(e.source, [e.target]);
  }
  const seen = new Set([from]);
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === to) return true;
    for (const t of next.get(id) ?? []) {
      if (!seen.has(t)) {
        seen.add(t);
        stack.push(t);
      }
    }
  }
  return false;
}

/** The rules of the canvas: what the engine would refuse is refused while drawing. */
export function checkConnection(graph: Graph, c: Connection): ConnectRefusal | null {
  const source = graph.nodes.find((n) => n.id === c.source);
  const target = graph.nodes.find((n) => n.id === c.target);
  if (!source || !target) return 'unknown_node';
  if (source.id === target.id) return 'self';
  const sourceDef = nodeDefinition(source.type);
  const toTools = c.targetHandle === TOOLS_HANDLE;
  if (toTools) {
    if (target.type !== 'agent') return 'tools_only';
    if (!sourceDef?.isTool) return 'not_a_tool';
  } else if (sourceDef?.isTool && target.type === 'agent') {
    return 'tools_only';
  }
  if (source.type === 'output') return 'output_ends';
  if (target.type === 'input') return 'input_starts';
  if ((source.parentId ?? null) !== (target.parentId ?? null)) return 'different_scope';
  const handles = sourceHandlesOf(source);
  if (handles && (!c.sourceHandle || !handles.includes(c.sourceHandle))) return 'branch_needed';
  const handle = handles ? c.sourceHandle : null;
  const duplicate = graph.edges.some(
    (e) =>
      e.source === c.source &&
      e.target === c.target &&
      (e.sourceHandle ?? null) === (handle ?? null) &&
      isToolEdge(e) === toTools,
  );
  if (duplicate) return 'duplicate';
  if (!toTools && reaches(graph.edges, target.id, source.id)) return 'cycle';
  return null;
}

const toolIds = (node: EditorNode): string[] => {
  const fields = node.data.fields;
  const tools = Array.isArray(fields) ? undefined : fields.tools;
  return Array.isArray(tools) ? tools.filter((t): t is string => typeof t === 'string') : [];
};

const withTools = (node: EditorNode, tools: string[]): EditorNode => ({
  ...node,
  data: { ...node.data, fields: { ...(node.data.fields as Record<string, unknown>), tools } },
});

/** Adds the edge (and, for a tool attached to an agent, the tool to the agent's list); unchanged if refused. */
export function connect(graph: Graph, c: Connection): Graph {
  if (checkConnection(graph, c)) return graph;
  const source = graph.nodes.find((n) => n.id === c.source)!;
  const sourceHandle = sourceHandlesOf(source) ? (c.sourceHandle ?? null) : null;
  const toTools = c.targetHandle === TOOLS_HANDLE;
  const edge: EditorEdge = {
    id: edgeId(c.source, c.target, sourceHandle),
    source: c.source,
    target: c.target,
    ...(sourceHandle ? { sourceHandle } : {}),
    ...(toTools ? { targetHandle: TOOLS_HANDLE } : {}),
  };
  const nodes = toTools
    ? graph.nodes.map((n) =>
        n.id === c.target && !toolIds(n).includes(c.source) ? withTools(n, [...toolIds(n), c.source]) : n,
      )
    : graph.nodes;
  return { nodes, edges: [...graph.edges, edge] };
}

/** The ids given and every node inside them (an iteration's children, at any depth). */
export function withDescendants(nodes: readonly EditorNode[], ids: Iterable<string>): Set<string> {
  const out = new Set(ids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const n of nodes) {
      if (n.parentId && out.has(n.parentId) && !out.has(n.id)) {
        out.add(n.id);
        grew = true;
      }
    }
  }
  return out;
}

/** Drops tools that no longer exist or are no longer attached from every agent's list. */
function pruneTools(nodes: EditorNode[], edges: readonly EditorEdge[]): EditorNode[] {
  const present = new Set(nodes.map((n) => n.id));
  return nodes.map((n) => {
    if (n.type !== 'agent') return n;
    const before = toolIds(n);
    const after = before.filter(
      (id) => present.has(id) && edges.some((e) => isToolEdge(e) && e.source === id && e.target === n.id),
    );
    return after.length === before.length ? n : withTools(n, after);
  });
}

/** Deletes nodes with their children and every edge that touches them (spec section 4). */
export function removeNodes(graph: Graph, ids: Iterable<string>): Graph {
  const gone = withDescendants(graph.nodes, ids);
  if (!graph.nodes.some((n) => gone.has(n.id))) return graph;
  const edges = graph.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target));
  const nodes = graph.nodes.filter((n) => !gone.has(n.id));
  return { nodes: pruneTools(nodes, edges), edges };
}

export function removeEdges(graph: Graph, ids: Iterable<string>): Graph {
  const gone = new Set(ids);
  if (!graph.edges.some((e) => gone.has(e.id))) return graph;
  const edges = graph.edges.filter((e) => !gone.has(e.id));
  const touchedTools = graph.edges.some((e) => gone.has(e.id) && isToolEdge(e));
  return { nodes: touchedTools ? pruneTools(graph.nodes, edges) : graph.nodes, edges };
}

/**
 * Parents before children, as React Flow needs them; otherwise the order is kept. Nodes whose parent is
 * missing lose it (a config edited by hand), so the canvas never refuses to draw.
 */
export function parentsFirst(nodes: readonly EditorNode[]): EditorNode[] {
  const ids = new Set(nodes.map((n) => n.id));
  const placed = new Set<string>();
  const out: EditorNode[] = [];
  let rest = nodes.map((n) =>
    n.parentId && (!ids.has(n.parentId) || n.parentId === n.id)
      ? { ...n, parentId: undefined, extent: undefined }
      : n,
  );
  while (rest.length > 0) {
    const next = rest.filter((n) => !n.parentId || placed.has(n.parentId));
    if (next.length === 0) {
      // A loop of parents: break it by lifting the rest to the top level.
      out.push(...rest.map((n) => ({ ...n, parentId: undefined, extent: undefined })));
      break;
    }
    for (const n of next) {
      out.push(n);
      placed.add(n.id);
    }
    rest = rest.filter((n) => !placed.has(n.id));
  }
  return out;
}
