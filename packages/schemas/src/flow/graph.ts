import { z } from 'zod';

/** Retry a failed node `max` more times, waiting backoffMs, then twice that, and so on. */
export const nodeRetry = z
  .object({
    max: z.number().int().min(0).max(10),
    backoffMs: z.number().int().min(0).max(600_000).default(1000),
  })
  .strict();
export type NodeRetry = z.infer<typeof nodeRetry>;

export const nodeData = z.looseObject({
  label: z.string().max(200),
  description: z.string().max(2000).optional(),
  /** An object of field values; the input node keeps its list of custom fields here. */
  fields: z
    .union([z.array(z.record(z.string(), z.unknown())), z.record(z.string(), z.unknown())])
    .default(() => ({})),
  /** Output names, as the editor last computed them. */
  outputs: z.array(z.string()).optional(),
  retry: nodeRetry.optional(),
  /** Abandon an attempt after this long. */
  timeoutMs: z.number().int().min(1).max(3_600_000).optional(),
  /** A failure marks the node failed, gives `{ error }` as its output and lets the run go on. */
  continueOnError: z.boolean().optional(),
});
export type NodeData = z.infer<typeof nodeData>;

export const flowNode = z.object({
  /** The type, an underscore and a 4-character suffix: see newNodeId. */
  id: z.string().min(1).max(100),
  type: z.string().min(1).max(100),
  data: nodeData,
  position: z.object({ x: z.number(), y: z.number() }),
  /** The iteration that holds this node. */
  parentId: z.string().optional(),
  extent: z
    .union([
      z.literal('parent'),
      z.tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])]),
    ])
    .nullable()
    .optional(),
  width: z.number().nullable().optional(),
  height: z.number().nullable().optional(),
});
export type FlowNode = z.infer<typeof flowNode>;

export const flowEdge = z.object({
  id: z.string().min(1).max(300),
  source: z.string().min(1),
  target: z.string().min(1),
  /** A conditional node's branch; null or absent for ordinary outputs. */
  sourceHandle: z.string().nullable().optional(),
  /** 'tools' when a tool node is attached to an agent. */
  targetHandle: z.string().nullable().optional(),
});
export type FlowEdge = z.infer<typeof flowEdge>;

export const flowConfig = z.object({
  nodes: z.array(flowNode).max(2000),
  edges: z.array(flowEdge).max(10_000),
});
export type FlowConfig = z.infer<typeof flowConfig>;

/** The target handle of an edge that attaches a tool node to an agent. */
export const TOOLS_HANDLE = 'tools';

const SUFFIX_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new node id: the type, '_' and 4 random characters, different from every id in `taken`. */
export function newNodeId(type: string, taken?: ReadonlySet<string>): string {
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(4));
    let suffix = '';
    for (const b of bytes) suffix += SUFFIX_CHARS[b % SUFFIX_CHARS.length];
    const id = `${type}_${suffix}`;
    if (!taken?.has(id)) return id;
  }
}

/**
 * Edge ids are `${source}-${target}`, as the spec says. An edge leaving a conditional node's branch handle
 * gets the handle as a suffix, `${source}-${target}-${handle}`, so that two branches of one conditional
 * may lead to the same node and still have distinct ids. Ids are never parsed: source, target and
 * handles are read from the edge's own fields.
 */
export function edgeId(source: string, target: string, sourceHandle?: string | null): string {
  return sourceHandle ? `${source}-${target}-${sourceHandle}` : `${source}-${target}`;
}
