export const EMPTY_OUTPUT_TEXT = 'Response completed but no content was provided.';

const TEXT_KEYS = ['response', 'result', 'output', 'answer', 'text'] as const;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const firstText = (value: Record<string, unknown>): string | null => {
  for (const key of TEXT_KEYS) {
    const v = value[key];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return null;
};

const isBlank = (v: unknown): boolean =>
  v === null ||
  v === undefined ||
  (typeof v === 'string' && v.trim() === '') ||
  (Array.isArray(v) && v.length === 0) ||
  (isRecord(v) && Object.values(v).every(isBlank));

/**
 * The text a chat shows for a run's outputs: the first non-empty string among response, result, output,
 * answer and text, at the top level and then one level down; otherwise the outputs as pretty-printed
 * JSON; nothing at all gives a fixed sentence.
 */
export function finalOutputText(outputs: unknown): string {
  if (typeof outputs === 'string') return outputs.trim() === '' ? EMPTY_OUTPUT_TEXT : outputs;
  if (isBlank(outputs)) return EMPTY_OUTPUT_TEXT;
  if (isRecord(outputs)) {
    const top = firstText(outputs);
    if (top !== null) return top;
    for (const value of Object.values(outputs)) {
      if (!isRecord(value)) continue;
      const nested = firstText(value);
      if (nested !== null) return nested;
    }
  }
  return JSON.stringify(outputs, null, 2);
}
