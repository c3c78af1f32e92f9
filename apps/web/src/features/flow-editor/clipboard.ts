import { edgeId, newNodeId } from '@atelier/schemas';
import { type EditorNode, type Graph, parentsFirst, withDescendants, type EditorEdge } from './graph-ops';
import { renameReferences } from './references';

/** What copy keeps: the chosen nodes with their children, and the edges among them. */
export interface Clipboard {
  nodes: EditorNode[];
  edges: EditorEdge[];
}

const plain = (n: EditorNode): EditorNode => {
  const { selected: _s, dragging: _d, measured: _m, ...rest } = n as EditorNode & Record<string, unknown>;
  return structuredClone(rest) as EditorNode;
};

export function copySelection(graph: Graph, ids: Iterable<string>): Clipboard | null {
  const chosen = withDescendants(graph.nodes, ids);
  if (chosen.size === 0) return null;
  const nodes = graph.nodes.filter((n) => chosen.has(n.id)).map(plain);
  const edges = graph.edges
    .filter((e) => chosen.has(e.source) && chosen.has(e.target))
    .map((e) => ({ ...e }));
  return { nodes, edges };
}

/**
 * Adds a copy of the clipboard: new ids everywhere (nodes, edges, parents, references between the copied
 * nodes), top-level copies moved by `offset`; a child whose iteration was not copied stays in its
 * iteration. Answers the new graph and the ids of the pasted nodes.
 */
export function paste(
  graph: Graph,
  clip: Clipboard,
  offset: { x: number; y: number },
): { graph: Graph; pasted: string[] } {
  const taken = new Set(graph.nodes.map((n) => n.id));
  const present = new Set(taken);
  const rename = new Map<string, string>();
  for (const n of clip.nodes) {
    const id = newNodeId(n.type, taken);
    taken.add(id);
    rename.set(n.id, id);
  }
  const nodes = clip.nodes.flatMap((n): EditorNode[] => {
    const parentCopied = n.parentId !== undefined && rename.has(n.parentId);
    const parentId = parentCopied ? rename.get(n.parentId!) : n.parentId;
    // A child pasted without its iteration, into a flow that lacks that iteration, goes to the top.
    const keepsParent = parentId !== undefined && (parentCopied || present.has(parentId));
    const moved = !parentCopied;
    return [
      {
        ...n,
        id: rename.get(n.id)!,
        data: renameReferences(n.data, rename),
        position: moved ? { x: n.position.x + offset.x, y: n.position.y + offset.y } : n.position,
        parentId: keepsParent ? parentId : undefined,
        extent: keepsParent ? n.extent : undefined,
      },
    ];
  });
  const edges = clip.edges.map((e) => {
    const source = rename.get(e.source)!;
    const target = rename.get(e.target)!;
    return { ...e, id: edgeId(source, target, e.sourceHandle), source, target };
  });
  return {
    graph: { nodes: parentsFirst([...graph.nodes, ...nodes]), edges: [...graph.edges, ...edges] },
    pasted: nodes.map((n) => n.id),
  };
}
