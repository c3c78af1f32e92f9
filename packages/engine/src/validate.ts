import { type FlowConfig, type FlowNode, nodeName, outputsOf, sourceHandlesOf } from '@atelier/schemas';
import { FlowAncestry } from './ancestry';
import { customFieldProblems, fieldValueProblem, isEmptyValue, isVisible } from './field-checks';
import { buildGraph, type FlowGraph, reachableFromInputs } from './graph';
import { forEachReference, hasReferences } from './references';
import { separatorProblem, userRegexProblem } from './user-regex';

export const problemCodes = [
  'unknown_type',
  'duplicate_node_id',
  'duplicate_edge_id',
  'invalid_parent',
  'unknown_edge_node',
  'invalid_edge',
  'unknown_handle',
  'missing_field',
  'invalid_field',
  /** A user regular expression the linear-time engine refuses: refused at save too. */
  'invalid_pattern',
  'invalid_tool',
  'unknown_reference',
  'unknown_output',
  'reference_not_upstream',
  'cycle',
  'no_input',
  'multiple_inputs',
  'no_reachable_output',
  'unreachable_output',
] as const;
export type ProblemCode = (typeof problemCodes)[number];

export interface FlowProblem {
  /** The node concerned; null for problems of the whole flow. */
  nodeId: string | null;
  edgeId?: string;
  field?: string;
  code: ProblemCode;
  message: string;
}

export interface ValidateOptions {
  /** A draft (a template, a flow being edited): empty required fields are not problems. */
  draft?: boolean;
}

/** Everything that would stop a flow from running as drawn, node by node. Structural: no service is called. */
export function validateFlow(config: FlowConfig, options: ValidateOptions = {}): FlowProblem[] {
  return validateGraph(buildGraph(config), config, options);
}

export function validateGraph(
  graph: FlowGraph,
  config: FlowConfig,
  options: ValidateOptions = {},
): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const add = (p: FlowProblem) => problems.push(p);
  const hasInput = (graph.scopes.get(null) ?? []).some((id) => graph.nodes.get(id)?.type === 'input');
  const ancestry = new FlowAncestry(graph, hasInput ? reachableFromInputs(graph) : null);

  for (const node of graph.duplicates) {
    add({ nodeId: node.id, code: 'duplicate_node_id', message: `Two nodes have the id ${node.id}.` });
  }
  for (const node of graph.nodes.values()) checkNode(graph, ancestry, node, options, add);
  checkEdges(graph, config, add);

  for (const [scope] of graph.scopes) {
    for (const id of ancestry.of(scope).cyclic) {
      add({
        nodeId: id,
        code: 'cycle',
        message: 'This node is part of a cycle; repeat work with an iteration instead.',
      });
    }
  }
  checkEnds(graph, add);
  return problems;
}

function checkNode(
  graph: FlowGraph,
  ancestry: FlowAncestry,
  node: FlowNode,
  options: ValidateOptions,
  add: (p: FlowProblem) => void,
): void {
  const def = graph.defs.get(node.id);
  if (!def) {
    add({ nodeId: node.id, code: 'unknown_type', message: `Unknown node type "${node.type}".` });
    return;
  }
  const scope = graph.scopeOf.get(node.id) ?? null;
  if (node.parentId && scope === null) {
    add({
      nodeId: node.id,
      code: 'invalid_parent',
      message: `The parent ${node.parentId} is not an iteration of this flow.`,
    });
  } else if (scope !== null && (node.type === 'input' || node.type === 'output')) {
    add({
      nodeId: node.id,
      code: 'invalid_parent',
      message: `An ${node.type} node cannot sit inside an iteration.`,
    });
  }

  const fields = node.data.fields;
  if (node.type === 'input') {
    for (const message of customFieldProblems(fields)) {
      add({ nodeId: node.id, field: 'fields', code: 'invalid_field', message });
    }
  } else if (Array.isArray(fields)) {
    add({
      nodeId: node.id,
      field: 'fields',
      code: 'invalid_field',
      message: 'The fields must be an object.',
    });
  } else {
    for (const meta of def.fieldMeta) {
      if (!isVisible(meta, fields, def)) continue;
      const value = fields[meta.name];
      if (meta.required && isEmptyValue(value)) {
        if (!options.draft) {
          add({
            nodeId: node.id,
            field: meta.name,
            code: 'missing_field',
            message: `${meta.name} is required.`,
          });
        }
        continue;
      }
      const problem = fieldValueProblem(meta, value);
      if (problem) add({ nodeId: node.id, field: meta.name, code: 'invalid_field', message: problem });
    }
    if (node.type === 'agent') checkAgentTools(graph, node, fields.tools, add);
    if (node.type === 'iteration') checkOutputSelector(graph, node, fields.output_selector, add);
    if (node.type === 'recursive_splitter') checkSeparators(node, fields, add);
    checkReferences(graph, ancestry, node, fields, add);
  }
}

function checkAgentTools(graph: FlowGraph, node: FlowNode, tools: unknown, add: (p: FlowProblem) => void) {
  if (!Array.isArray(tools)) return;
  for (const id of tools) {
    if (typeof id !== 'string' || !graph.defs.get(id)?.isTool) {
      add({
        nodeId: node.id,
        field: 'tools',
        code: 'invalid_tool',
        message: `${String(id)} is not a tool node of this flow.`,
      });
    }
  }
}

function checkOutputSelector(
  graph: FlowGraph,
  node: FlowNode,
  selector: unknown,
  add: (p: FlowProblem) => void,
) {
  if (typeof selector !== 'string' || selector.trim() === '') return;
  const [childId = ''] = selector.trim().split('.');
  if (graph.scopeOf.get(childId) !== node.id || !selector.includes('.')) {
    add({
      nodeId: node.id,
      field: 'output_selector',
      code: 'invalid_field',
      message: `"${selector}" is not an output of a node inside this iteration (node_id.output).`,
    });
  }
}

/** Regex separators must compile on the linear-time engine; values holding references are checked at run. */
function checkSeparators(node: FlowNode, fields: Record<string, unknown>, add: (p: FlowProblem) => void) {
  const { is_separator_regex: isRegex, separators } = fields;
  if (!(isRegex === true || isRegex === 'true') || hasReferences(separators)) return;
  let list: unknown = separators;
  if (typeof separators === 'string') {
    try {
      list = JSON.parse(separators);
    } catch {
      return; // invalid JSON is the field check's problem
    }
  }
  if (!Array.isArray(list)) return;
  list.forEach((s, i) => {
    if (typeof s !== 'string') return;
    const problem = userRegexProblem(s);
    if (problem) {
      add({
        nodeId: node.id,
        field: 'separators',
        code: 'invalid_pattern',
        message: separatorProblem(i, s, problem),
      });
    }
  });
}

/** The problems a draft may not be saved with: patterns that could never run safely. */
export function patternProblems(config: FlowConfig): FlowProblem[] {
  return validateFlow(config, { draft: true }).filter((p) => p.code === 'invalid_pattern');
}

function checkReferences(
  graph: FlowGraph,
  ancestry: FlowAncestry,
  node: FlowNode,
  fields: Record<string, unknown>,
  add: (p: FlowProblem) => void,
) {
  // A tool node attached to agents runs in each agent's place.
  const readers = graph.agentsOf.get(node.id) ?? [node.id];
  forEachReference(fields, (ref, where) => {
    const field = where.split('.')[0] ?? where;
    const target = graph.nodes.get(ref.nodeId);
    if (!target) {
      add({
        nodeId: node.id,
        field,
        code: 'unknown_reference',
        message: `${ref.raw} names no node of this flow.`,
      });
      return;
    }
    const offered = [
      ...outputsOf(target),
      ...(graph.defs.get(target.id)?.childOutputs ?? []),
      ...(target.data.continueOnError ? ['error'] : []),
    ];
    if (graph.defs.has(target.id) && !offered.includes(ref.output)) {
      add({
        nodeId: node.id,
        field,
        code: 'unknown_output',
        message: `${ref.raw}: ${nodeName(target)} has no output "${ref.output}".`,
      });
      return;
    }
    if (!readers.every((reader) => ancestry.canRead(reader, ref.nodeId, ref.output))) {
      add({
        nodeId: node.id,
        field,
        code: 'reference_not_upstream',
        message: `${ref.raw} refers to ${nodeName(target)}, which does not run before this node.`,
      });
    }
  });
}

function checkEdges(graph: FlowGraph, config: FlowConfig, add: (p: FlowProblem) => void) {
  const seen = new Set<string>();
  for (const edge of config.edges) {
    if (seen.has(edge.id)) {
      add({
        nodeId: null,
        edgeId: edge.id,
        code: 'duplicate_edge_id',
        message: `Two edges have the id ${edge.id}.`,
      });
    }
    seen.add(edge.id);
  }
  for (const { edge, reason } of graph.strayEdges) {
    const known = graph.nodes.has(edge.source)
      ? edge.source
      : graph.nodes.has(edge.target)
        ? edge.target
        : null;
    const base = { nodeId: known, edgeId: edge.id };
    if (reason === 'unknown_node') {
      const missing = graph.nodes.has(edge.source) ? edge.target : edge.source;
      add({
        ...base,
        code: 'unknown_edge_node',
        message: `An edge links to ${missing}, which is not a node of this flow.`,
      });
    } else if (reason === 'self_loop') {
      add({ ...base, code: 'cycle', message: 'An edge links this node to itself.' });
    } else if (reason === 'crosses_scope') {
      add({
        ...base,
        code: 'invalid_edge',
        message: 'An edge crosses the border of an iteration; nodes inside read outside values by reference.',
      });
    } else {
      add({
        ...base,
        code: 'invalid_edge',
        message: 'A tool attached to an agent does not run on its own; only its edge to the agent counts.',
      });
    }
  }
  for (const [source, edges] of graph.outgoing) {
    const node = graph.nodes.get(source)!;
    const handles = sourceHandlesOf(node);
    if (!handles) continue;
    for (const e of edges) {
      if (e.handle === null || !handles.includes(e.handle)) {
        add({
          nodeId: source,
          edgeId: e.edge.id,
          code: 'unknown_handle',
          message: `An edge leaves from ${e.handle === null ? 'no branch' : `"${e.handle}"`}; branches are ${handles.join(', ')}.`,
        });
      }
    }
  }
}

function checkEnds(graph: FlowGraph, add: (p: FlowProblem) => void) {
  const top = graph.scopes.get(null) ?? [];
  const inputs = top.filter((id) => graph.nodes.get(id)?.type === 'input');
  if (inputs.length === 0) {
    add({ nodeId: null, code: 'no_input', message: 'The flow has no input node.' });
    return;
  }
  for (const id of inputs.slice(1)) {
    add({ nodeId: id, code: 'multiple_inputs', message: 'A flow has one input node.' });
  }
  const reachable = reachableFromInputs(graph);
  const outputs = top.filter((id) => graph.nodes.get(id)?.type === 'output');
  if (!outputs.some((id) => reachable.has(id))) {
    add({
      nodeId: null,
      code: 'no_reachable_output',
      message: 'No output node can be reached from the input.',
    });
  }
  for (const id of outputs) {
    if (!reachable.has(id)) {
      add({
        nodeId: id,
        code: 'unreachable_output',
        message: 'This output node cannot be reached from the input.',
      });
    }
  }
}
