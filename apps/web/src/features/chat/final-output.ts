export { finalOutputText, OUTPUT_KEYS } from '@atelier/schemas/final-output';

/** The output of an execution_completed event: its `outputs`/`output` field, else the event minus its name. */
export function completedOutput(event: Record<string, unknown>): unknown {
  if ('outputs' in event) return event.outputs;
  if ('output' in event) return event.output;
  const { event: _name, ...rest } = event;
  return rest;
}
