import { nodeDefinition, sourceHandlesOf, TOOLS_HANDLE } from '@atelier/schemas';
import { checkConnection, type EditorNode, type Graph } from './graph-ops';

/** A node's size on the canvas: measured by React Flow once drawn, else the card's usual size. */
export const DEFAULT_NODE_SIZE = { width: 240, height: 96 };
/** Space left between a node and the one placed beside it, and between rows. */
export const GAP = { x: 80, y: 32 };

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function sizeOf(node: Pick<EditorNode, 'measured' | 'width' | 'height'>): {
  width: number;
  height: number;
} {
  return {
    width: node.measured?.width ?? node.width ?? DEFAULT_NODE_SIZE.width,
    height: node.measured?.height ?? node.height ?? DEFAULT_NODE_SIZE.height,
  };
}

export const boxOf = (node: EditorNode): Box => ({ ...node.position, ...sizeOf(node) });

const overlaps = (a: Box, b: Box, margin: number) =>
  a.x < b.x + b.width + margin &&
  b.x < a.x + a.width + margin &&
  a.y < b.y + b.height + margin &&
  b.y < a.y + a.height + margin;

/**
 * The first free place for a box of `size` at `start` or below it (then in the next columns), among the
 * boxes given; never on top of one, always `margin` apart.
 */
export function freeSpot(
  start: { x: number; y: number },
  size: { width: number; height: number },
  taken: readonly Box[],
  margin = 16,
): { x: number; y: number } {
  const stepY = size.height + GAP.y;
  const stepX = size.width + GAP.x;
  for (let column = 0; column < 20; column++) {
    for (let row = 0; row < 20; row++) {
      const spot = { x: start.x + column * stepX, y: start.y + row * stepY };
      if (!taken.some((box) => overlaps({ ...spot, ...size }, box, margin))) return spot;
    }
  }
  // Twenty columns of twenty full rows: past any real flow. Below everything, then.
  const bottom = Math.max(...taken.map((b) => b.y + b.height));
  return { x: start.x, y: bottom + GAP.y };
}

/** The data edge a new node of `type` would take from `source`, if exactly one is possible. */
function soleLinkFrom(graph: Graph, source: EditorNode, type: string): boolean {
  const sourceDef = nodeDefinition(source.type);
  const newDef = nodeDefinition(type);
  if (!sourceDef || !newDef) return false;
  // A branching node has one output per branch, a tool links to an agent's tools: more than one way.
  if (source.type === 'output' || sourceDef.isTool || sourceDef.isContainer) return false;
  if (sourceHandlesOf(source)) return false;
  if (type === 'input' || newDef.isTool) return false;
  // Its output must be free: a node already feeding another would gain a second branch.
  return !graph.edges.some((e) => e.source === source.id && e.targetHandle !== TOOLS_HANDLE);
}

export interface Placement {
  position: { x: number; y: number };
  parentId?: string;
  /** The node the new one is linked from (its sole free output), when that is unambiguous. */
  connectFrom?: string;
}

/**
 * Where a node added by a click goes: beside the selected node (to its right, lower if that is taken),
 * linked from it when the link is unambiguous; inside the selected iteration; otherwise at the centre of
 * what the user sees, never on top of another node. `view` is that centre, in flow coordinates.
 */
export function placeNewNode(
  graph: Graph,
  type: string,
  selectedId: string | null,
  view: { x: number; y: number },
): Placement {
  const selected = graph.nodes.find((n) => n.id === selectedId);
  const io = type === 'input' || type === 'output';
  const size = sizeOf(type === 'iteration' ? { width: 520, height: 300 } : {});
  const siblings = (parentId: string | undefined) =>
    graph.nodes.filter((n) => (n.parentId ?? undefined) === parentId).map(boxOf);

  if (selected && nodeDefinition(selected.type)?.isContainer && !io) {
    // Inside the iteration, under its title, beside its last child.
    const children = graph.nodes.filter((n) => n.parentId === selected.id);
    const last = children.at(-1);
    const start = last
      ? { x: last.position.x + sizeOf(last).width + GAP.x, y: last.position.y }
      : { x: 24, y: 64 };
    return { position: freeSpot(start, size, siblings(selected.id)), parentId: selected.id };
  }
  if (selected && !(io && selected.parentId)) {
    const start = { x: selected.position.x + sizeOf(selected).width + GAP.x, y: selected.position.y };
    const position = freeSpot(start, size, siblings(selected.parentId));
    const placement: Placement = {
      position,
      ...(selected.parentId ? { parentId: selected.parentId } : {}),
    };
    if (soleLinkFrom(graph, selected, type)) placement.connectFrom = selected.id;
    return placement;
  }
  const start = { x: view.x - size.width / 2, y: view.y - size.height / 2 };
  return { position: freeSpot(start, size, siblings(undefined)) };
}

/** The link of a placement, if the canvas's rules allow it once the node exists. */
export function linkFor(graph: Graph, placement: Placement, newId: string) {
  if (!placement.connectFrom) return null;
  const c = { source: placement.connectFrom, target: newId };
  return checkConnection(graph, c) === null ? c : null;
}
