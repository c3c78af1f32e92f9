import { z } from 'zod';
import { nodeExecutionStatuses } from '../constants';

export const nodeExecutionStatus = z.enum(nodeExecutionStatuses);

/** What one execution of a node did (a node inside an iteration has one per item). */
export const nodeExecution = z.object({
  nodeId: z.string(),
  type: z.string(),
  status: nodeExecutionStatus,
  error: z.string().optional(),
  /** ISO timestamp. */
  startedAt: z.string(),
  durationSeconds: z.number(),
  /** The field values as resolved for this execution. */
  parameters: z.unknown(),
  outputs: z.record(z.string(), z.unknown()).nullable(),
  /** Attempts made (more than 1 after retries). */
  attempts: z.number().int().optional(),
  /** For nodes inside an iteration: the iteration and the item's index. */
  iterationId: z.string().optional(),
  iterationIndex: z.number().int().optional(),
});
export type NodeExecution = z.infer<typeof nodeExecution>;

const where = { iterationId: z.string().optional(), iterationIndex: z.number().int().optional() };

/** The events of a chatflow or workflow run, in the order they happen. */
export const flowRunEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('node_started'),
    nodeId: z.string(),
    nodeType: z.string(),
    label: z.string(),
    startedAt: z.string(),
    ...where,
  }),
  z.object({
    type: z.literal('node_completed'),
    nodeId: z.string(),
    nodeType: z.string(),
    execution: nodeExecution,
    ...where,
  }),
  /** A node failed; `continued` when it continues on error and the run goes on. */
  z.object({
    type: z.literal('node_error'),
    nodeId: z.string(),
    nodeType: z.string(),
    error: z.string(),
    continued: z.boolean(),
    execution: nodeExecution,
    ...where,
  }),
  z.object({ type: z.literal('node_skipped'), nodeId: z.string(), nodeType: z.string(), ...where }),
  /** Streamed model output, while the run goes on. */
  z.object({ type: z.literal('text_chunk'), nodeId: z.string(), text: z.string(), ...where }),
  z.object({
    type: z.literal('execution_completed'),
    outputs: z.record(z.string(), z.unknown()),
    /** The final output text (see finalOutputText). */
    text: z.string(),
  }),
  z.object({
    type: z.literal('execution_error'),
    error: z.string(),
    /** cancelled, limit_exceeded, invalid_flow or node_failed. */
    code: z.string(),
    nodeId: z.string().optional(),
  }),
]);
export type FlowRunEvent = z.infer<typeof flowRunEvent>;
