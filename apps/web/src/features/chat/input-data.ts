import type { ChatError } from './errors';
import { readAsDataUrl } from './image-upload';
import {
  coerceBoolean,
  coerceValue,
  isFileType,
  parseChatInput,
  validateInput,
  type InputField,
  type InputValue,
} from './input-fields';

export type InputErrors = Record<string, ChatError>;

/** Every field's problem, by field name; empty when all are fine. */
export function validateInputs(
  fields: readonly InputField[],
  values: Record<string, InputValue>,
): InputErrors {
  const errors: InputErrors = {};
  for (const field of fields) {
    const error = validateInput(field, values[field.name]);
    if (error) errors[field.name] = error;
  }
  return errors;
}

async function fileValue(value: InputValue): Promise<unknown> {
  if (value instanceof File) return readAsDataUrl(value);
  if (Array.isArray(value)) return Promise.all(value.map((v) => (v instanceof File ? readAsDataUrl(v) : v)));
  return value;
}

/**
 * The `input_data` of a chatflow or workflow message, before the query is added: files as data
 * URLs, booleans coerced, numbers as numbers, other text parsed as JSON where possible else
 * trimmed. Empty optional files are left out.
 */
export async function buildInputData(
  fields: readonly InputField[],
  values: Record<string, InputValue>,
): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name] ?? null;
    if (isFileType(field.type)) {
      if (value === null || (Array.isArray(value) && value.length === 0)) continue;
      data[field.name] = await fileValue(value);
    } else if (field.type === 'boolean') {
      data[field.name] = coerceBoolean(value);
    } else if (field.type === 'number') {
      data[field.name] = coerceValue('number', value);
    } else {
      data[field.name] = typeof value === 'string' ? parseChatInput(value) : value;
    }
  }
  return data;
}
