import { conditionBranches, type FieldMeta, inputCustomField, type NodeDefinition } from '@atelier/schemas';
import { hasReferences } from './references';

/** Empty as far as a required field goes. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** Whether a field applies, given the other values (falling back on the defaults). */
export function isVisible(meta: FieldMeta, fields: Record<string, unknown>, def: NodeDefinition): boolean {
  if (!meta.visibleWhen) return true;
  const { field, equals } = meta.visibleWhen;
  const defaults = def.defaults as Record<string, unknown>;
  const value = fields[field] ?? defaults[field];
  return value === equals || String(value) === String(equals);
}

const parsesAsJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** What is wrong with a set value of a field, or null. Values holding references are checked at run time. */
export function fieldValueProblem(meta: FieldMeta, value: unknown): string | null {
  if (isEmptyValue(value) || hasReferences(value)) return null;
  switch (meta.kind) {
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
      if (!Number.isFinite(n)) return `${meta.name} must be a number.`;
      if (meta.min !== undefined && n < meta.min) return `${meta.name} must be at least ${meta.min}.`;
      if (meta.max !== undefined && n > meta.max) return `${meta.name} must be at most ${meta.max}.`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' || value === 'true' || value === 'false'
        ? null
        : `${meta.name} must be true or false.`;
    case 'select':
      return meta.options && !meta.options.some((o) => o.value === String(value))
        ? `${meta.name} must be one of ${meta.options.map((o) => o.value).join(', ')}.`
        : null;
    case 'json':
      return typeof value === 'object' || (typeof value === 'string' && parsesAsJson(value))
        ? null
        : `${meta.name} must be valid JSON.`;
    case 'tools':
      return Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? null
        : `${meta.name} must be a list of tool node ids.`;
    case 'conditions': {
      const parsed = conditionBranches.safeParse(value);
      return parsed.success ? null : `${meta.name}: ${parsed.error.issues[0]?.message ?? 'invalid'}.`;
    }
    case 'model':
    case 'collection':
    case 'connector':
    case 'secret':
    case 'credential':
      return typeof value === 'string' ? null : `${meta.name} must be text.`;
    default:
      return null;
  }
}

/** Problems of the input node's custom fields list. */
export function customFieldProblems(fields: unknown): string[] {
  if (!Array.isArray(fields)) return ['The custom fields must be a list.'];
  const problems: string[] = [];
  const names = new Set<string>();
  fields.forEach((f, i) => {
    const parsed = inputCustomField.safeParse(f);
    if (!parsed.success) {
      problems.push(`Custom field ${i + 1}: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
    } else if (names.has(parsed.data.name)) {
      problems.push(`Two custom fields are named "${parsed.data.name}".`);
    } else {
      names.add(parsed.data.name);
    }
  });
  return problems;
}
