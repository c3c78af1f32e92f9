import type { FlowNode, NodeDefinition, NodeRetry } from '@atelier/schemas';
import { type FlowGraph, reachableFromInputs } from './graph';
import { RunError } from './errors';
import { hasReferences } from './references';
import type { NodeImplementation, NodeRegistry } from './types';

export interface PlannedEdge {
  target: PlannedNode;
  handle: string | null;
}

/** A node, ready to run many times: everything that does not change between executions is computed once. */
export interface PlannedNode {
  id: string;
  node: FlowNode;
  def: NodeDefinition;
  impl: NodeImplementation;
  /** Index in its scope's state arrays. */
  slot: number;
  out: PlannedEdge[];
  indegree: number;
  /** The fields hold references, so they are resolved at each execution (otherwise used as they are). */
  dynamic: boolean;
  /** Tool nodes attached to this agent. */
  tools: PlannedNode[];
  /** The nodes inside this iteration. */
  children: ScopePlan | null;
  retry: NodeRetry | undefined;
  timeoutMs: number | undefined;
  continueOnError: boolean;
}

export interface ScopePlan {
  containerId: string | null;
  nodes: PlannedNode[];
  roots: PlannedNode[];
  /** Nodes without outgoing edges, in canvas order. */
  leaves: string[];
  outputNodes: PlannedNode[];
}

export function planFlow(graph: FlowGraph, registry: NodeRegistry): ScopePlan {
  const planned = new Map<string, PlannedNode>();
  const get = (id: string): PlannedNode => {
    let p = planned.get(id);
    if (p) return p;
    const node = graph.nodes.get(id)!;
    const def = graph.defs.get(id);
    const impl = registry[node.type as keyof NodeRegistry] as NodeImplementation | undefined;
    if (!def || !impl) throw new RunError('invalid_flow', `Unknown node type "${node.type}".`, id);
    p = {
      id,
      node,
      def,
      impl,
      slot: -1,
      out: [],
      indegree: 0,
      dynamic: hasReferences(node.data.fields),
      tools: [],
      children: null,
      retry: node.data.retry,
      timeoutMs: node.data.timeoutMs,
      continueOnError: node.data.continueOnError === true,
    };
    planned.set(id, p);
    p.tools = (graph.toolsOf.get(id) ?? []).map(get);
    if (def.isContainer) p.children = planScope(id, graph.scopes.get(id) ?? []);
    return p;
  };

  const planScope = (containerId: string | null, ids: readonly string[]): ScopePlan => {
    const nodes = ids.map(get);
    const inScope = new Set(ids);
    nodes.forEach((p, slot) => {
      p.slot = slot;
      p.out = (graph.outgoing.get(p.id) ?? [])
        .filter((e) => inScope.has(e.target))
        .map((e) => ({ target: get(e.target), handle: e.handle }));
    });
    for (const p of nodes) for (const e of p.out) e.target.indegree++;
    assertAcyclic(nodes);
    return {
      containerId,
      nodes,
      roots: nodes.filter((p) => p.indegree === 0),
      leaves: nodes.filter((p) => p.out.length === 0).map((p) => p.id),
      outputNodes: nodes.filter((p) => p.node.type === 'output'),
    };
  };

  const top = graph.scopes.get(null) ?? [];
  const hasInput = top.some((id) => graph.nodes.get(id)?.type === 'input');
  const reachable = hasInput ? reachableFromInputs(graph) : null;
  return planScope(null, reachable ? top.filter((id) => reachable.has(id)) : top);
}

/** Kahn's algorithm: a cycle would leave its nodes waiting for ever. */
function assertAcyclic(nodes: readonly PlannedNode[]): void {
  const pending = nodes.map((p) => p.indegree);
  const queue = nodes.filter((p) => p.indegree === 0);
  for (let i = 0; i < queue.length; i++) {
    for (const e of queue[i]!.out) if (--pending[e.target.slot]! === 0) queue.push(e.target);
  }
  if (queue.length < nodes.length) {
    const stuck = nodes.find((p) => pending[p.slot]! > 0)!;
    throw new RunError(
      'invalid_flow',
      'The flow has a cycle; repeat work with an iteration instead.',
      stuck.id,
    );
  }
}
