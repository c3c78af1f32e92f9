import { NODE_CATALOG, type NodeFields, type NodeType } from '../catalog';
import { edgeId, type FlowConfig, type FlowEdge, type FlowNode, TOOLS_HANDLE } from '../graph';
import { referenceTo } from '../values';

export interface FlowTemplate {
  id: string;
  /** Translation key of its name (`flowTemplates.<id>.name`), like the catalog's keys. */
  name: string;
  type: 'chatflow' | 'workflow';
  /** Translation key of what it does (`flowTemplates.<id>.description`). */
  description: string;
  configuration: FlowConfig;
}

/** Drops undefined values so a template is the same after a JSON round trip. */
const defined = (value: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));

/**
 * A template node: catalog defaults overridden by `fields`, at column `col` and row `row` of the canvas. Its
 * label is a translation key: the catalog's name of its type, or `extra.label` (`nodeCatalog.templateNodes.…`).
 */
export function templateNode<T extends NodeType>(
  type: T,
  suffix: string,
  at: { col: number; row?: number },
  fields: Partial<NodeFields<T>> | (T extends 'input' ? NodeFields<'input'> : never),
  extra: Partial<Pick<FlowNode, 'parentId' | 'extent' | 'width' | 'height'>> & { label?: string } = {},
): FlowNode {
  const def = NODE_CATALOG[type];
  const { label, ...layout } = extra;
  const merged = Array.isArray(def.defaults)
    ? (fields as NodeFields<'input'>)
    : defined({ ...(def.defaults as object), ...(fields as object) });
  return {
    id: `${type}_${suffix}`,
    type,
    data: { label: label ?? def.label, description: def.description, fields: merged },
    position: { x: 80 + at.col * 320, y: 120 + (at.row ?? 0) * 200 },
    ...layout,
  };
}

export const link = (source: FlowNode, target: FlowNode): FlowEdge => ({
  id: edgeId(source.id, target.id),
  source: source.id,
  target: target.id,
});

/** Attaches a tool node to an agent (the agent also lists it in its tools field). */
export const attach = (tool: FlowNode, agent: FlowNode): FlowEdge => ({
  id: edgeId(tool.id, agent.id),
  source: tool.id,
  target: agent.id,
  targetHandle: TOOLS_HANDLE,
});

export const ref = (node: FlowNode, output: string): string => referenceTo(node.id, output);

/** A straight line of nodes, each linked to the next. */
export function chain(...nodes: FlowNode[]): FlowConfig {
  return { nodes, edges: nodes.slice(1).map((n, i) => link(nodes[i]!, n)) };
}
