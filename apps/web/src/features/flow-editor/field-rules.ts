import type { FieldMeta, NodeDefinition } from '@atelier/schemas';

/** A field applies when its condition holds; the condition's field falls back to the catalog default. */
export function isFieldVisible(
  meta: FieldMeta,
  fields: Record<string, unknown>,
  def: NodeDefinition,
): boolean {
  if (!meta.visibleWhen) return true;
  const defaults = (Array.isArray(def.defaults) ? {} : def.defaults) as Record<string, unknown>;
  const value = fields[meta.visibleWhen.field] ?? defaults[meta.visibleWhen.field];
  return value === meta.visibleWhen.equals;
}

export const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

const isReference = (value: unknown) => typeof value === 'string' && /\{\{#.+#\}\}/.test(value);

export interface FieldError {
  key: string;
  values?: Record<string, unknown>;
}

/** What the inspector says under a field before the server is asked: required, numbers, JSON. */
export function fieldError(meta: FieldMeta, value: unknown): FieldError | null {
  if (isEmpty(value))
    return meta.required ? { key: 'flow.field.required', values: { label: meta.label } } : null;
  if (isReference(value)) return null;
  if (meta.kind === 'number') {
    const n = typeof value === 'number' ? value : Number(String(value).trim());
    if (!Number.isFinite(n)) return { key: 'flow.field.number' };
    if (meta.min !== undefined && n < meta.min) return { key: 'flow.field.min', values: { min: meta.min } };
    if (meta.max !== undefined && n > meta.max) return { key: 'flow.field.max', values: { max: meta.max } };
  }
  if (meta.kind === 'json' && typeof value === 'string') {
    try {
      JSON.parse(value);
    } catch {
      return { key: 'flow.field.json' };
    }
  }
  return null;
}

/** A number field keeps a number when the text is one, else the text (a reference, or a mistake shown as such). */
export function numberValue(text: string): number | string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : text;
}

/** A JSON field keeps the parsed value when the text is JSON, else the text. */
export function jsonValue(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export const jsonText = (value: unknown): string =>
  value === undefined || value === null
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value, null, 2);
