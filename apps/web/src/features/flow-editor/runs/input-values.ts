import type { FileValue, InputCustomField, InputFieldType } from '@atelier/schemas';
import type { ChatError } from '@/features/chat/errors';
import { readAsDataUrl } from '@/features/chat/image-upload';
import { validateInputs, type InputErrors } from '@/features/chat/input-data';
import {
  coerceBoolean,
  coerceValue,
  defaultValues,
  isFileType,
  isMultipleFiles,
  type InputField,
  type InputValue,
} from '@/features/chat/input-fields';

export type { InputErrors } from '@/features/chat/input-data';
export type { InputValue } from '@/features/chat/input-fields';

/** The input node's custom field in the chat's shape, so the chat's defaults and checks apply as they are. */
export const toInputField = (field: InputCustomField): InputField => ({
  name: field.name,
  type: field.type,
  is_mandatory: field.isMandatory,
});

/** Defaults per type (spec): string empty, number 1, boolean false, objects and lists sample JSON, files none. */
export const initialValues = (fields: readonly InputCustomField[]): Record<string, InputValue> =>
  defaultValues(fields.map(toInputField));

const JSON_TYPES = new Set<InputFieldType>(['object', 'string[]', 'number[]', 'object[]', 'ChatMessage[]']);

/** A JSON field's problem: not JSON, or not the object or list its type says. */
function jsonProblem(type: InputFieldType, value: InputValue | undefined): ChatError | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return { key: 'flowRuns.form.invalidJson' };
  }
  if (type === 'object') {
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? null
      : { key: 'flowRuns.form.expectedObject' };
  }
  if (!Array.isArray(parsed)) return { key: 'flowRuns.form.expectedList' };
  if (type === 'number[]' && !parsed.every((v) => typeof v === 'number')) {
    return { key: 'flowRuns.form.expectedNumbers' };
  }
  if (type === 'ChatMessage[]' && !parsed.every(isChatMessage))
    return { key: 'flowRuns.form.expectedMessages' };
  return null;
}

const isChatMessage = (v: unknown) =>
  typeof v === 'object' && v !== null && typeof (v as { role?: unknown }).role === 'string' && 'content' in v;

/** Every field's first problem by name: the chat's rules (mandatory, files, numbers), then JSON shape. */
export function validateRunInputs(
  fields: readonly InputCustomField[],
  values: Record<string, InputValue>,
): InputErrors {
  const errors = validateInputs(fields.map(toInputField), values);
  for (const field of fields) {
    if (errors[field.name] || !JSON_TYPES.has(field.type)) continue;
    const problem = jsonProblem(field.type, values[field.name]);
    if (problem) errors[field.name] = problem;
  }
  return errors;
}

/** Browsers give no type for some documents (.md often): the extension decides then. */
const MIME_BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  md: 'text/markdown',
  markdown: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
};

export function mimeTypeOf(file: File): string {
  if (file.type) return file.type;
  const extension = file.name.toLowerCase().split('.').pop() ?? '';
  return MIME_BY_EXTENSION[extension] ?? 'application/octet-stream';
}

/** A chosen file as the flow passes files: name, type, bytes as a data: URL, size. */
export async function fileToValue(file: File): Promise<FileValue> {
  return { name: file.name, mimeType: mimeTypeOf(file), dataUrl: await readAsDataUrl(file), size: file.size };
}

/**
 * The run's `inputs` from the form: files read into file values, booleans coerced, numbers as
 * numbers, JSON types parsed (validated before), text as typed. Empty optional files are left out.
 */
export async function buildRunInputs(
  fields: readonly InputCustomField[],
  values: Record<string, InputValue>,
): Promise<Record<string, unknown>> {
  const inputs: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name] ?? null;
    if (isFileType(field.type)) {
      const files = Array.isArray(value) ? value : value instanceof File ? [value] : [];
      if (files.length === 0) continue;
      const read = await Promise.all(files.map(fileToValue));
      inputs[field.name] = isMultipleFiles(field.type) ? read : read[0];
    } else if (field.type === 'boolean') {
      inputs[field.name] = coerceBoolean(value);
    } else if (field.type === 'number') {
      // A blank optional number is left out rather than sent as NaN.
      if (value === null || (typeof value === 'string' && value.trim() === '')) continue;
      inputs[field.name] = coerceValue('number', value);
    } else if (JSON_TYPES.has(field.type) && typeof value === 'string') {
      if (value.trim() === '') continue;
      inputs[field.name] = JSON.parse(value);
    } else {
      inputs[field.name] = value ?? '';
    }
  }
  return inputs;
}
