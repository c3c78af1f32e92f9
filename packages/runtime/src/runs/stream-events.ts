import type { FlowRunEvent, FlowStreamEvent } from '@atelier/schemas';

/** Node outputs larger than this travel as a note; the whole value is in the run's node executions. */
const MAX_EVENT_OUTPUT_CHARS = 64 * 1024;

function compact(outputs: Record<string, unknown> | null): Record<string, unknown> {
  if (!outputs) return {};
  const json = JSON.stringify(outputs);
  if (json.length <= MAX_EVENT_OUTPUT_CHARS) return outputs;
  return {
    _truncated: `The outputs are ${Math.round(json.length / 1024)} KB; open the node's execution to see them.`,
  };
}

/** The engine's events as the client reads them (snake_case, spec names); terminal ones are the runner's. */
export function toStreamEvent(event: FlowRunEvent): FlowStreamEvent | null {
  const iteration_index = 'iterationIndex' in event ? (event.iterationIndex ?? null) : null;
  switch (event.type) {
    case 'node_started':
      return {
        type: 'node_started',
        node_id: event.nodeId,
        node_type: event.nodeType,
        label: event.label,
        iteration_index,
      };
    case 'node_completed':
      return {
        type: 'node_completed',
        node_id: event.nodeId,
        node_type: event.nodeType,
        duration_seconds: event.execution.durationSeconds,
        outputs: compact(event.execution.outputs),
        iteration_index,
      };
    case 'node_error':
      return {
        type: 'node_error',
        node_id: event.nodeId,
        node_type: event.nodeType,
        error: event.error,
        duration_seconds: event.execution.durationSeconds,
        iteration_index,
      };
    case 'node_skipped':
      return { type: 'node_skipped', node_id: event.nodeId, node_type: event.nodeType };
    case 'text_chunk':
      return { type: 'text', node_id: event.nodeId, text: event.text };
    default:
      // execution_completed / execution_error: written by the runner once the run row is final.
      return null;
  }
}
