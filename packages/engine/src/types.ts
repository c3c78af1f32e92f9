import type { ToolDefinition } from '@atelier/providers';
import type { FlowNode, NodeFields, NodeType } from '@atelier/schemas';
import type { EngineServices } from './services';

export type NodeOutputs = Record<string, unknown>;

/** A function an agent may call, offered by a tool node. */
export interface AgentTool {
  definition: ToolDefinition;
  /** The node that offers it. */
  nodeId: string;
  /** Returns the text the model reads; throws when the call fails. */
  invoke(args: Record<string, unknown>, signal: AbortSignal): Promise<string>;
}

/** What one run of an iteration's children gave. */
export interface ChildRunResult {
  /** Outputs of the children that ran, by node id. */
  outputs: ReadonlyMap<string, NodeOutputs>;
  /** Children without outgoing edges, in canvas order. */
  leaves: readonly string[];
}

export interface NodeContext<F> {
  readonly node: FlowNode;
  readonly nodeId: string;
  /** The node's fields with references resolved and defaults filled in. */
  readonly fields: F;
  readonly services: EngineServices;
  /** Fires on cancellation, on this node's timeout and when the run fails. */
  readonly signal: AbortSignal;
  /** The run's inputs (the input node reads them). */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Streams model output to the client while the run goes on. */
  emitText(text: string): void;
  /** The tools of the tool nodes attached to this node (agents), their fields resolved now. */
  tools(): AgentTool[];
  /** Runs this node's children once, with `item` and `index` as its own outputs (iterations). */
  runChildren(item: unknown, index: number, signal?: AbortSignal): Promise<ChildRunResult>;
}

export interface ToolContext<F> {
  readonly node: FlowNode;
  readonly nodeId: string;
  readonly fields: F;
  readonly services: EngineServices;
}

/** The behaviour of one node type. Method syntax on purpose: a registry holds many field types. */
export interface NodeImplementation<F = unknown> {
  run(ctx: NodeContext<F>): Promise<NodeOutputs> | NodeOutputs;
  /** Tool nodes: the functions they give an agent. */
  tools?(ctx: ToolContext<F>): AgentTool[];
}

export type NodeRegistry = { readonly [T in NodeType]: NodeImplementation<NodeFields<T>> };

export interface RunLimits {
  /** Node executions allowed (nodes inside iterations count once per item). */
  maxSteps: number;
  /** Wall-clock time allowed for the whole run. */
  maxRunTimeMs: number;
  /** Largest JSON size of one node's outputs, in bytes. */
  maxPayloadBytes: number;
}

export const DEFAULT_LIMITS: RunLimits = {
  maxSteps: 10_000,
  maxRunTimeMs: 15 * 60_000,
  maxPayloadBytes: 20 * 1024 * 1024,
};
