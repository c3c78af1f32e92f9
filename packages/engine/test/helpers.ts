import type { FlowConfig, FlowEdge, FlowNode, FlowRunEvent, NodeFields, NodeType } from '@atelier/schemas';
import { edgeId, TOOLS_HANDLE } from '@atelier/schemas';
import { type ChatServiceRequest, type ChatServiceResult, type EngineServices, runFlow } from '../src';

/** A node of the given type; the id is `${type}_${suffix}`. */
export function node<T extends NodeType>(
  type: T,
  suffix: string,
  fields: Partial<NodeFields<T>> | Record<string, unknown> | unknown[] = {},
  extra: Omit<Partial<FlowNode>, 'data'> & { data?: Partial<FlowNode['data']> } = {},
): FlowNode {
  const { data, ...rest } = extra;
  return {
    id: `${type}_${suffix}`,
    type,
    position: { x: 0, y: 0 },
    ...rest,
    data: { label: `${type} ${suffix}`, fields: fields as Record<string, unknown>, ...data },
  };
}

export function edge(source: FlowNode | string, target: FlowNode | string, sourceHandle?: string): FlowEdge {
  const s = typeof source === 'string' ? source : source.id;
  const t = typeof target === 'string' ? target : target.id;
  return { id: edgeId(s, t, sourceHandle), source: s, target: t, ...(sourceHandle ? { sourceHandle } : {}) };
}

export const toolEdge = (tool: FlowNode, agent: FlowNode): FlowEdge => ({
  ...edge(tool, agent),
  targetHandle: TOOLS_HANDLE,
});

/**
 * A flow, frozen to the last field: the runtime shares one parsed configuration between the runs of a
 * published version, so a run that changed it would change the others (in strict mode this throws).
 */
export const flow = (nodes: FlowNode[], edges: FlowEdge[]): FlowConfig => deepFreeze({ nodes, edges });

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Links the nodes one after the other. */
export const chainEdges = (...nodes: FlowNode[]): FlowEdge[] =>
  nodes.slice(1).map((n, i) => edge(nodes[i]!, n));

/** Services whose unimplemented methods fail loudly, so a test sees any call it did not expect. */
export function stubServices(overrides: Partial<EngineServices> = {}): EngineServices {
  const missing = (name: string) => () => Promise.reject(new Error(`unexpected services.${name} call`));
  return {
    chat: missing('chat'),
    image: missing('image'),
    speech: missing('speech'),
    transcribe: missing('transcribe'),
    ocr: missing('ocr'),
    video: missing('video'),
    rerank: missing('rerank'),
    http: missing('http'),
    ...overrides,
  };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A chat stub answering from a function of the request, recording every request. */
export function chatStub(
  answer: (req: ChatServiceRequest, call: number) => Promise<ChatServiceResult> | ChatServiceResult,
) {
  const requests: ChatServiceRequest[] = [];
  const chat = async (req: ChatServiceRequest) => {
    requests.push(req);
    return answer(req, requests.length);
  };
  return { chat, requests };
}

export const reply = (text: string): ChatServiceResult => ({ text, toolCalls: [] });

/** The text of the user message a chat request ends with. */
export const lastUserText = (req: ChatServiceRequest): string => {
  const last = req.messages[req.messages.length - 1];
  if (!last || last.role !== 'user') return '';
  return typeof last.content === 'string'
    ? last.content
    : last.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
};

export function eventLog() {
  const events: FlowRunEvent[] = [];
  return { events, onEvent: (e: FlowRunEvent) => events.push(e), types: () => events.map((e) => e.type) };
}

/** A small run: input, an LLM that echoes, output. */
export const inputNode = (fields: unknown[] = []) => node('input', 'in01', fields);

/** A cheap step that gives `content` (a text tool used on its own). */
export const textNode = (suffix: string, content: string, extra: Parameters<typeof node>[3] = {}) =>
  node('text_tool', suffix, { name: `text_${suffix}`, description: 'A text.', content }, extra);

/** Runs input -> the node -> output and gives the node's execution record. */
export async function runNode(
  target: FlowNode,
  services: EngineServices,
  inputs: Record<string, unknown> = {},
  inputFields: unknown[] = [],
  onEvent?: (event: FlowRunEvent) => void,
) {
  const input = inputNode(inputFields);
  const out = node('output', 'ou01', { response: 'done' });
  const result = await runFlow({
    config: flow([input, target, out], chainEdges(input, target, out)),
    inputs,
    services,
    ...(onEvent ? { onEvent } : {}),
  });
  const record = result.executions.find((e) => e.nodeId === target.id);
  return { result, record, outputs: record?.outputs ?? null, error: result.error };
}
