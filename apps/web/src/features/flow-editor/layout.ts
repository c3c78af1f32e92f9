import { Graph as DagreGraph, layout } from '@dagrejs/dagre';
import { nodeDefinition } from '@atelier/schemas';
import type { EditorNode, Graph } from './graph-ops';
import { GAP, sizeOf } from './placement';

/** Room at the top of an iteration for its title and hint, and around its children. */
const FRAME = { top: 72, side: 24, bottom: 24 };
const SPACING = { nodesep: 40, ranksep: GAP.x, edgesep: 16 };

/**
 * Lays out one scope (the top level, or one iteration's children) left to right with dagre: each node
 * after those it takes from, branches one under the other. Answers top-left positions, the scope's
 * content starting at `origin`, and the size the content takes.
 */
function layoutScope(
  nodes: readonly EditorNode[],
  edges: Graph['edges'],
  sizes: ReadonlyMap<string, { width: number; height: number }>,
  origin: { x: number; y: number },
): { positions: Map<string, { x: number; y: number }>; width: number; height: number } {
  const g = new DagreGraph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', ...SPACING, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(nodes.map((n) => n.id));
  // The canvas's own order breaks ties: a node listed first stays above.
  for (const n of nodes) g.setNode(n.id, { ...sizes.get(n.id)! });
  for (const e of edges) if (ids.has(e.source) && ids.has(e.target)) g.setEdge(e.source, e.target, {}, e.id);
  layout(g);
  const positions = new Map<string, { x: number; y: number }>();
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const n of nodes) {
    const { x = 0, y = 0, width, height } = g.node(n.id);
    const left = x - width / 2;
    const top = y - height / 2;
    positions.set(n.id, { x: left, y: top });
    minX = Math.min(minX, left);
    minY = Math.min(minY, top);
    maxX = Math.max(maxX, left + width);
    maxY = Math.max(maxY, top + height);
  }
  for (const [id, p] of positions)
    positions.set(id, { x: Math.round(p.x - minX + origin.x), y: Math.round(p.y - minY + origin.y) });
  return { positions, width: nodes.length ? maxX - minX : 0, height: nodes.length ? maxY - minY : 0 };
}

/**
 * The graph laid out anew: the top level and each iteration's children, left to right in the order they
 * run, no two nodes on top of each other. Iterations grow to hold their children. The top level keeps its
 * top-left corner, so the flow does not jump away. Edges and data are untouched; nodes whose position is
 * unchanged are the same objects.
 */
export function autoLayout(graph: Graph): Graph {
  if (graph.nodes.length === 0) return graph;
  const sizes = new Map(graph.nodes.map((n) => [n.id, sizeOf(n)]));
  const positions = new Map<string, { x: number; y: number }>();
  const frames = new Map<string, { width: number; height: number }>();
  const byParent = new Map<string | undefined, EditorNode[]>();
  for (const n of graph.nodes) {
    const key = n.parentId ?? undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), n]);
  }

  // Innermost iterations first: a frame's size is known before the scope that holds it is laid out.
  const depth = (n: EditorNode): number => {
    let d = 0;
    let parent = n.parentId;
    while (parent && d < graph.nodes.length) {
      d++;
      parent = graph.nodes.find((p) => p.id === parent)?.parentId;
    }
    return d;
  };
  const containers = graph.nodes
    .filter((n) => nodeDefinition(n.type)?.isContainer && byParent.has(n.id))
    .sort((a, b) => depth(b) - depth(a));
  for (const container of containers) {
    const children = byParent.get(container.id)!;
    const laid = layoutScope(children, graph.edges, sizes, { x: FRAME.side, y: FRAME.top });
    for (const [id, p] of laid.positions) positions.set(id, p);
    const current = sizes.get(container.id)!;
    const frame = {
      width: Math.max(current.width, laid.width + 2 * FRAME.side),
      height: Math.max(current.height, laid.height + FRAME.top + FRAME.bottom),
    };
    frames.set(container.id, frame);
    sizes.set(container.id, frame);
  }

  const top = byParent.get(undefined) ?? [];
  if (top.length > 0) {
    const origin = {
      x: Math.min(...top.map((n) => n.position.x)),
      y: Math.min(...top.map((n) => n.position.y)),
    };
    for (const [id, p] of layoutScope(top, graph.edges, sizes, origin).positions) positions.set(id, p);
  }

  const nodes = graph.nodes.map((n) => {
    const p = positions.get(n.id);
    const frame = frames.get(n.id);
    const moved = p && (p.x !== n.position.x || p.y !== n.position.y);
    const grown = frame && (frame.width !== sizeOf(n).width || frame.height !== sizeOf(n).height);
    if (!moved && !grown) return n;
    const next: EditorNode = { ...n, position: p ?? n.position };
    if (grown) Object.assign(next, { width: frame.width, height: frame.height });
    return next;
  });
  return { nodes, edges: graph.edges };
}
