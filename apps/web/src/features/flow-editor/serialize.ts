import { type FlowEdge, flowEdge, type FlowNode, flowNode } from '@atelier/schemas';
import { type EditorEdge, type EditorNode, type Graph, parentsFirst } from './graph-ops';

/** A configuration as stored and sent. */
export interface SavedConfiguration {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

/** The saved shape of a node: React Flow's own keys (selected, measured, dragging…) left out. */
export function toSavedNode(n: EditorNode): FlowNode {
  const out: FlowNode = { id: n.id, type: n.type, data: n.data, position: n.position };
  if (n.parentId) out.parentId = n.parentId;
  if (n.extent === 'parent') out.extent = 'parent';
  if (typeof n.width === 'number') out.width = n.width;
  if (typeof n.height === 'number') out.height = n.height;
  return out;
}

export function toSavedEdge(e: EditorEdge): FlowEdge {
  const out: FlowEdge = { id: e.id, source: e.source, target: e.target };
  if (e.sourceHandle) out.sourceHandle = e.sourceHandle;
  if (e.targetHandle) out.targetHandle = e.targetHandle;
  return out;
}

export const toConfiguration = (graph: Graph): SavedConfiguration => ({
  nodes: graph.nodes.map(toSavedNode),
  edges: graph.edges.map(toSavedEdge),
});

/** A configuration node as the canvas holds it (sizes absent rather than null). */
export function toEditorNode(n: FlowNode): EditorNode {
  const out: EditorNode = { id: n.id, type: n.type, data: n.data, position: n.position };
  if (n.parentId) out.parentId = n.parentId;
  if (n.extent === 'parent') out.extent = 'parent';
  if (typeof n.width === 'number') out.width = n.width;
  if (typeof n.height === 'number') out.height = n.height;
  return out;
}

/**
 * A stored configuration as the canvas can draw it: well-formed nodes and edges are kept (a malformed one
 * is dropped and counted, so the editor can say so), parents placed before their children.
 */
export function fromConfiguration(configuration: unknown): { graph: Graph; dropped: number } {
  const raw = (configuration ?? {}) as { nodes?: unknown; edges?: unknown };
  const rawNodes = Array.isArray(raw.nodes) ? raw.nodes : [];
  const rawEdges = Array.isArray(raw.edges) ? raw.edges : [];
  const nodes = rawNodes.flatMap((n) => {
    const parsed = flowNode.safeParse(n);
    return parsed.success ? [toEditorNode(parsed.data)] : [];
  });
  const edges = rawEdges.flatMap((e) => {
    const parsed = flowEdge.safeParse(e);
    return parsed.success ? [parsed.data] : [];
  });
  return {
    graph: { nodes: parentsFirst(nodes), edges },
    dropped: rawNodes.length - nodes.length + rawEdges.length - edges.length,
  };
}
