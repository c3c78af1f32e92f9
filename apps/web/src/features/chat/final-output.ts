/** Where a workflow's final answer usually is, in order of preference. */
export const OUTPUT_KEYS = ['response', 'result', 'output', 'answer', 'text'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

function fromKeys(record: Record<string, unknown>): string | null {
  for (const key of OUTPUT_KEYS) {
    const value = record[key];
    if (nonEmpty(value)) return value;
  }
  return null;
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (isRecord(value)) return Object.keys(value).length === 0;
  return false;
}

/**
 * The text of a final output: the output itself when it is a string; else the first non-empty
 * string among response, result, output, answer, text at the top level, then one level down (the
 * nested objects in their order); else the output as pretty-printed JSON. Null when there is no
 * content at all (the caller shows 'Response completed but no content was provided.').
 */
export function finalOutputText(output: unknown): string | null {
  if (isEmpty(output)) return null;
  if (typeof output === 'string') return output;
  if (isRecord(output)) {
    const top = fromKeys(output);
    if (top !== null) return top;
    for (const value of Object.values(output)) {
      if (!isRecord(value)) continue;
      const nested = fromKeys(value);
      if (nested !== null) return nested;
    }
  }
  return JSON.stringify(output, null, 2);
}

/** The output of an execution_completed event: its `outputs`/`output` field, else the event minus its name. */
export function completedOutput(event: Record<string, unknown>): unknown {
  if ('outputs' in event) return event.outputs;
  if ('output' in event) return event.output;
  const { event: _name, ...rest } = event;
  return rest;
}
