import {
  type FlowConfig,
  type FlowEdge,
  type FlowNode,
  type NodeDefinition,
  nodeDefinition,
} from '@atelier/schemas';

export interface EdgeRef {
  edge: FlowEdge;
  source: string;
  target: string;
  /** The branch handle the edge leaves from, if any. */
  handle: string | null;
}

export type StrayReason = 'unknown_node' | 'crosses_scope' | 'attached_tool' | 'self_loop';

/** A flow's structure, indexed once: what validation checks and what the executor plans from. */
export interface FlowGraph {
  nodes: ReadonlyMap<string, FlowNode>;
  /** Definitions of the nodes whose type the catalog knows. */
  defs: ReadonlyMap<string, NodeDefinition>;
  /** Node ids appearing more than once (the first one is kept). */
  duplicates: readonly FlowNode[];
  /** The container each node sits in; null at the top level. */
  scopeOf: ReadonlyMap<string, string | null>;
  /** Node ids per scope, tool nodes attached to agents left out, in canvas order. */
  scopes: ReadonlyMap<string | null, string[]>;
  /** Tool nodes each agent may call. */
  toolsOf: ReadonlyMap<string, string[]>;
  /** The agents each attached tool node serves. */
  agentsOf: ReadonlyMap<string, string[]>;
  /** Data edges (both ends known, in one scope, no attachment). */
  outgoing: ReadonlyMap<string, EdgeRef[]>;
  incoming: ReadonlyMap<string, EdgeRef[]>;
  strayEdges: readonly { edge: FlowEdge; reason: StrayReason }[];
}

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

function agentToolIds(node: FlowNode): string[] {
  const fields = node.data.fields;
  if (Array.isArray(fields) || !Array.isArray(fields.tools)) return [];
  return fields.tools.filter((t): t is string => typeof t === 'string');
}

export function buildGraph(config: FlowConfig): FlowGraph {
  const nodes = new Map<string, FlowNode>();
  const defs = new Map<string, NodeDefinition>();
  const duplicates: FlowNode[] = [];
  for (const node of config.nodes) {
    if (nodes.has(node.id)) {
      duplicates.push(node);
      continue;
    }
    nodes.set(node.id, node);
    const def = nodeDefinition(node.type);
    if (def) defs.set(node.id, def);
  }

  const scopeOf = new Map<string, string | null>();
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    scopeOf.set(node.id, parent && defs.get(parent.id)?.isContainer ? parent.id : null);
  }

  const isTool = (id: string) => defs.get(id)?.isTool === true;
  const isAgent = (id: string) => nodes.get(id)?.type === 'agent';
  const toolsOf = new Map<string, string[]>();
  const agentsOf = new Map<string, string[]>();
  const attach = (tool: string, agent: string) => {
    if (toolsOf.get(agent)?.includes(tool)) return;
    push(toolsOf, agent, tool);
    push(agentsOf, tool, agent);
  };
  for (const node of nodes.values()) {
    if (!isAgent(node.id)) continue;
    for (const id of agentToolIds(node)) if (isTool(id)) attach(id, node.id);
  }
  for (const edge of config.edges) {
    if (isTool(edge.source) && isAgent(edge.target)) attach(edge.source, edge.target);
  }

  const outgoing = new Map<string, EdgeRef[]>();
  const incoming = new Map<string, EdgeRef[]>();
  const strayEdges: { edge: FlowEdge; reason: StrayReason }[] = [];
  for (const edge of config.edges) {
    const { source, target } = edge;
    if (!nodes.has(source) || !nodes.has(target)) strayEdges.push({ edge, reason: 'unknown_node' });
    else if (agentsOf.has(source) && isAgent(target) && toolsOf.get(target)?.includes(source)) continue;
    else if (agentsOf.has(source) || agentsOf.has(target)) strayEdges.push({ edge, reason: 'attached_tool' });
    else if (source === target) strayEdges.push({ edge, reason: 'self_loop' });
    else if (scopeOf.get(source) !== scopeOf.get(target)) strayEdges.push({ edge, reason: 'crosses_scope' });
    else {
      const ref: EdgeRef = { edge, source, target, handle: edge.sourceHandle ?? null };
      push(outgoing, source, ref);
      push(incoming, target, ref);
    }
  }

  const scopes = new Map<string | null, string[]>([[null, []]]);
  for (const id of nodes.keys()) {
    if (!agentsOf.has(id)) push(scopes, scopeOf.get(id) ?? null, id);
  }
  return { nodes, defs, duplicates, scopeOf, scopes, toolsOf, agentsOf, outgoing, incoming, strayEdges };
}

/** The top-level nodes a run reaches from its input nodes, following data edges. */
export function reachableFromInputs(graph: FlowGraph): Set<string> {
  const seen = new Set<string>();
  const queue = (graph.scopes.get(null) ?? []).filter((id) => graph.nodes.get(id)?.type === 'input');
  for (const id of queue) seen.add(id);
  for (let i = 0; i < queue.length; i++) {
    for (const e of graph.outgoing.get(queue[i]!) ?? []) {
      if (!seen.has(e.target)) {
        seen.add(e.target);
        queue.push(e.target);
      }
    }
  }
  return seen;
}
