import { nodeDefinition, outputsOf, REFERENCE_SOURCE, TOOLS_HANDLE } from '@atelier/schemas';
import type { EditorNode, Graph, EditorEdge } from './graph-ops';

/** A node whose outputs the variable picker offers, with the output names it may insert. */
export interface ReferenceSource {
  nodeId: string;
  label: string;
  type: string;
  outputs: string[];
}

const offeredBy = (node: EditorNode): string[] => [
  ...outputsOf(node),
  ...(node.data.continueOnError ? ['error'] : []),
];

/** The nodes that run before `id` in its own scope (data edges only), nearest first. */
function ancestorsInScope(edges: readonly EditorEdge[], id: string): string[] {
  const incoming = new Map<string, string[]>();
  for (const e of edges) {
    if (e.targetHandle === TOOLS_HANDLE) continue;
    const list = incoming.get(e.target);
    if (list) list.push(e.source);
    else incoming.set(e.target, [e.source]);
  }
  const order: string[] = [];
  const seen = new Set([id]);
  const queue = [id];
  for (let i = 0; i < queue.length; i++) {
    for (const s of incoming.get(queue[i]!) ?? []) {
      if (seen.has(s)) continue;
      seen.add(s);
      order.push(s);
      queue.push(s);
    }
  }
  return order;
}

/**
 * What a node may reference, as the engine decides it: the nodes upstream of it; inside an iteration also
 * the iteration's item and index, then whatever is upstream of the iteration; a tool attached to an agent
 * reads what its agent reads. Never the node itself, nothing downstream, nothing on another branch.
 */
export function upstreamOf(graph: Graph, id: string): ReferenceSource[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const agents = graph.edges.filter((e) => e.targetHandle === TOOLS_HANDLE && e.source === id);
  const readers = agents.length > 0 ? agents.map((e) => e.target) : [id];
  const found = new Map<string, ReferenceSource>();
  const add = (node: EditorNode, outputs: string[]) => {
    const known = found.get(node.id);
    if (known) {
      known.outputs = [...new Set([...known.outputs, ...outputs])];
      return;
    }
    if (outputs.length > 0) {
      found.set(node.id, { nodeId: node.id, label: node.data.label || node.id, type: node.type, outputs });
    }
  };
  for (const reader of readers) {
    let current: EditorNode | undefined = byId.get(reader);
    while (current) {
      for (const a of ancestorsInScope(graph.edges, current.id)) {
        const node = byId.get(a);
        if (node) add(node, offeredBy(node));
      }
      const parent = current.parentId ? byId.get(current.parentId) : undefined;
      if (parent) add(parent, [...(nodeDefinition(parent.type)?.childOutputs ?? [])]);
      current = parent;
    }
  }
  return [...found.values()];
}

const referencePattern = () => new RegExp(REFERENCE_SOURCE, 'g');

/** Every `{{#node.output#}}` in a value (strings at any depth), rewritten by `rename` when it names a node. */
export function renameReferences<T>(value: T, rename: ReadonlyMap<string, string>): T {
  if (typeof value === 'string') {
    return value.replace(referencePattern(), (whole, nodeId: string, output: string) => {
      const to = rename.get(nodeId);
      return to ? `{{#${to}.${output}#}}` : whole;
    }) as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => renameReferences(v, rename)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameReferences(v, rename)])) as T;
  }
  return value;
}

/** Inserts text at a caret position (the variable picker's insertion into a field). */
export function insertAt(text: string, at: number | null, insert: string): { text: string; caret: number } {
  const i = at === null ? text.length : Math.max(0, Math.min(at, text.length));
  return { text: text.slice(0, i) + insert + text.slice(i), caret: i + insert.length };
}
