/** Where a chatflow's or workflow's final answer usually is, in order of preference (spec section 4). */
export const OUTPUT_KEYS = ['response', 'result', 'output', 'answer', 'text'] as const;
export const EMPTY_OUTPUT_TEXT = 'Response completed but no content was provided.';

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

/** Nothing to show: null, blank text, an empty list, or an object whose values are all blank. */
function isBlank(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (isRecord(value)) return Object.values(value).every(isBlank);
  return false;
}

/**
 * The final output text, shared by the server (a run's final_output) and the chat: the output itself
 * when it is a string; else the first non-empty string among response, result, output, answer, text
 * at the top level, then one level down (the nested objects in their order); else the output as
 * pretty-printed JSON. Null when there is no content at all (shown as EMPTY_OUTPUT_TEXT).
 */
export function finalOutputText(output: unknown): string | null {
  if (isBlank(output)) return null;
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
