import { z } from 'zod';
import { answerSource } from './chat';
import { uuid } from './common';
import { flowChatbotTypes, finishedNodeStatuses, runStatuses, runTriggers } from './constants';

export const runStatus = z.enum(runStatuses);

/** The structured events of a run (spec section 4, "Chat"), each sent as one SSE `data:` with an `id:`. */
export const flowStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run_started'), run_id: z.string(), conversation_id: z.string().nullable() }),
  z.object({
    type: z.literal('node_started'),
    node_id: z.string(),
    node_type: z.string(),
    label: z.string(),
    iteration_index: z.number().int().nullable(),
  }),
  z.object({
    type: z.literal('node_completed'),
    node_id: z.string(),
    node_type: z.string(),
    duration_seconds: z.number(),
    outputs: z.record(z.string(), z.unknown()),
    iteration_index: z.number().int().nullable(),
  }),
  z.object({
    type: z.literal('node_error'),
    node_id: z.string(),
    node_type: z.string(),
    error: z.string(),
    duration_seconds: z.number(),
    iteration_index: z.number().int().nullable(),
  }),
  z.object({ type: z.literal('node_skipped'), node_id: z.string(), node_type: z.string() }),
  /** Streamed model output, passed through while the run goes on. */
  z.object({ type: z.literal('text'), node_id: z.string(), text: z.string() }),
  /**
   * The passages the run's knowledge retrieve nodes found so far, all of them each time (best first):
   * the answer's sources, stored with it in a chat.
   */
  z.object({ type: z.literal('sources'), node_id: z.string(), sources: z.array(answerSource) }),
  z.object({
    type: z.literal('execution_completed'),
    run_id: z.string(),
    outputs: z.record(z.string(), z.unknown()),
    /** The spec's final output text, which replaces the assistant message. */
    final_output: z.string(),
  }),
  z.object({
    type: z.literal('execution_error'),
    run_id: z.string(),
    error: z.union([z.string(), z.object({ message: z.string() })]),
    status: runStatus,
  }),
  z.object({ type: z.literal('heartbeat') }),
]);
export type FlowStreamEvent = z.infer<typeof flowStreamEvent>;

/**
 * What a run stream says beside the run's own events, without an `id:` (resuming is unchanged):
 * `queued` while the run waits for a runner (its place, 1 = next), and `reconnect` as the last event
 * when the API process shuts down (re-attach to `GET /runs/{run_id}/events` with `last_event_id`, after
 * `retry_ms`; the run goes on).
 */
export const runStreamNotice = z.discriminatedUnion('type', [
  z.object({ type: z.literal('queued'), run_id: z.string(), position: z.number().int().positive() }),
  z.object({
    type: z.literal('reconnect'),
    run_id: z.string(),
    last_event_id: z.string().nullable(),
    retry_ms: z.number().int().positive(),
  }),
]);
export type RunStreamNotice = z.infer<typeof runStreamNotice>;
export type FlowStreamEventType = FlowStreamEvent['type'];
/** The events after which a run's stream ends. */
export const TERMINAL_EVENTS: readonly FlowStreamEventType[] = ['execution_completed', 'execution_error'];

export const runNodeExecution = z.object({
  node_id: z.string(),
  node_type: z.string(),
  iteration_index: z.number().int().nullable(),
  status: z.enum(finishedNodeStatuses),
  error: z.string().nullable(),
  duration_seconds: z.number(),
  /** The fields as resolved for this execution (an object, or the input node's list of fields). */
  parameters: z.unknown(),
  outputs: z.record(z.string(), z.unknown()),
  started_at: z.string(),
});
export type RunNodeExecution = z.infer<typeof runNodeExecution>;

export const run = z.object({
  id: z.string(),
  chatbot_id: z.string().nullable(),
  chatbot_type: z.enum(flowChatbotTypes),
  conversation_id: z.string().nullable(),
  trigger: z.enum(runTriggers),
  status: runStatus,
  config_version: z.number().int().nullable(),
  inputs: z.record(z.string(), z.unknown()),
  outputs: z.record(z.string(), z.unknown()).nullable(),
  final_output: z.string().nullable(),
  error: z.string().nullable(),
  started_by: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type Run = z.infer<typeof run>;
export const runDetail = run.extend({ node_executions: z.array(runNodeExecution) });
export type RunDetail = z.infer<typeof runDetail>;
export const runsAnswer = z.object({ runs: z.array(run) });

export const inputValues = z.record(z.string(), z.unknown());

/** A test run from the editor: the saved configuration, or the draft on the canvas. */
export const startRunBody = z
  .object({
    inputs: inputValues.default({}),
    configuration: z
      .object({ nodes: z.array(z.unknown()).max(2000), edges: z.array(z.unknown()).max(10_000) })
      .optional(),
  })
  .strict();
export type StartRunBody = z.infer<typeof startRunBody>;
export const startRunAnswer = z.object({ run_id: z.string(), status: runStatus });

/** Spec: the chatflow and workflow message endpoints take `input_data` (the additional inputs plus query). */
export const flowMessageBody = z
  .object({
    input_data: inputValues,
    /** Regenerate or Retry: the query is the last one asked again; its answer is replaced, not added. */
    regenerate: z.boolean().optional(),
  })
  .strict();
export type FlowMessageBody = z.infer<typeof flowMessageBody>;

export const runIdParams = z.object({ id: uuid }).strict();
export const runsQuery = z
  .object({ limit: z.coerce.number().int().min(1).max(200).default(50), status: runStatus.optional() })
  .strict();

/**
 * The queue's one job: run this run, with the id of the request that started it and its W3C trace
 * context (for the runner's logs and spans). Validated when taken off the queue.
 */
export const runJob = z.object({
  runId: uuid,
  requestId: z.string().max(128).optional(),
  trace: z.record(z.string().max(64), z.string().max(512)).optional(),
});
export type RunJob = z.infer<typeof runJob>;

/** What stops a flow from running, per node (answered with 422 invalid_flow on publish and run). */
export const flowProblem = z.object({
  node_id: z.string().nullable(),
  field: z.string().nullable(),
  code: z.string(),
  message: z.string(),
});
export const flowErrorBody = z.object({
  detail: z.string(),
  code: z.string(),
  problems: z.array(flowProblem).optional(),
});

/** `PUT /chatbots/{id}/chatflow/config` (chatflows and workflows alike). */
export const flowConfigBody = z
  .object({
    configuration: z.object({
      nodes: z.array(z.unknown()).max(2000),
      edges: z.array(z.unknown()).max(10_000),
    }),
  })
  .strict();
