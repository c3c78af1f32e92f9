import type { ChatMessage } from '@atelier/providers';
import type { FileValue, InputCustomField, InputFieldType } from '@atelier/schemas';
import { NodeInputError } from '../errors';
import { stringifyValue } from '../references';
import { extensionOf, isRecord, toFileValue } from './files';
import { toChatMessages } from './messages';

const IMAGE_TYPES = new Set(['jpeg', 'jpg', 'png', 'gif', 'webp']);
const AUDIO_TYPES = new Set(['mp3', 'mp4', 'mpeg', 'm4a', 'x-m4a', 'wav', 'x-wav', 'wave', 'webm']);

/** Accepted extensions and media types of the document input types. */
const DOCUMENT_TYPES: Record<string, { extensions: string[]; mimeTypes: string[] }> = {
  pdf: { extensions: ['pdf'], mimeTypes: ['application/pdf'] },
  pptx: {
    extensions: ['pptx'],
    mimeTypes: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  },
  markdown: { extensions: ['md', 'markdown'], mimeTypes: ['text/markdown', 'text/x-markdown'] },
  csv: { extensions: ['csv'], mimeTypes: ['text/csv'] },
  json: { extensions: ['json'], mimeTypes: ['application/json'] },
  docx: {
    extensions: ['docx'],
    mimeTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  },
  odt: { extensions: ['odt'], mimeTypes: ['application/vnd.oasis.opendocument.text'] },
};

const isMissing = (v: unknown) =>
  v === undefined ||
  v === null ||
  (typeof v === 'string' && v.trim() === '') ||
  (Array.isArray(v) && v.length === 0);

/** What an optional field gives when the run does not fill it. */
export function emptyInputValue(type: InputFieldType): unknown {
  if (type === 'string') return '';
  if (type === 'boolean') return false;
  if (type === 'object') return {};
  if (type.endsWith('[]')) return [];
  return null;
}

function parseJson(value: string, what: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new NodeInputError(`${what} is not valid JSON.`);
  }
}

function toNumber(value: unknown, what: string): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : NaN;
  if (!Number.isFinite(n)) throw new NodeInputError(`${what} must be a number.`);
  return n;
}

function toBoolean(value: unknown, what: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 0 || value === 1) return value === 1;
  const s = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (['true', '1', 'yes', 'on'].includes(s)) return true;
  if (['false', '0', 'no', 'off'].includes(s)) return false;
  throw new NodeInputError(`${what} must be true or false.`);
}

function toList(value: unknown, what: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    const parsed = parseJson(value, what);
    if (Array.isArray(parsed)) return parsed;
  }
  if (typeof value === 'string') return [value];
  throw new NodeInputError(`${what} must be a list.`);
}

function toObject(value: unknown, what: string): Record<string, unknown> {
  const parsed = typeof value === 'string' ? parseJson(value, what) : value;
  if (!isRecord(parsed)) throw new NodeInputError(`${what} must be an object.`);
  return parsed;
}

const subtype = (mime: string) => mime.split('/')[1]?.split(';')[0]?.toLowerCase() ?? '';

function mediaFile(value: unknown, kind: 'image' | 'audio', accepted: Set<string>): FileValue | null {
  const file = toFileValue(value, kind);
  if (!file) return null;
  // The spec accepts any data:image/ or data:audio/ string; files are checked by type.
  if (typeof value === 'string' && value.trim().startsWith(`data:${kind}/`)) return file;
  const major = file.mimeType.split('/')[0];
  const byMime =
    (major === kind || (kind === 'audio' && major === 'video')) && accepted.has(subtype(file.mimeType));
  return byMime || accepted.has(extensionOf(file.name)) || accepted.has(extensionOf(file.url ?? ''))
    ? file
    : null;
}

function documentFile(value: unknown, type: string, what: string): FileValue {
  const accepted = DOCUMENT_TYPES[type]!;
  const file = toFileValue(value, type);
  const ok =
    file &&
    (accepted.mimeTypes.includes(file.mimeType.split(';')[0]!.toLowerCase()) ||
      accepted.extensions.includes(extensionOf(file.name)));
  if (!ok)
    throw new NodeInputError(
      `${what} must be a ${accepted.extensions.map((e) => `.${e}`).join(' or ')} file.`,
    );
  return file;
}

/** Coerces a value given for a field of the input node to the field's type; throws with what is wrong. */
export function coerceInput(type: InputFieldType, value: unknown, what: string): unknown {
  switch (type) {
    case 'string':
      return stringifyValue(value);
    case 'number':
      return toNumber(value, what);
    case 'boolean':
      return toBoolean(value, what);
    case 'object':
      return toObject(value, what);
    case 'string[]':
      return toList(value, what).map(stringifyValue);
    case 'number[]':
      return toList(value, what).map((v, i) => toNumber(v, `${what} item ${i + 1}`));
    case 'object[]':
      return toList(value, what).map((v, i) => toObject(v, `${what} item ${i + 1}`));
    case 'ChatMessage[]':
      return toChatMessages(value) satisfies ChatMessage[];
    case 'image':
    case 'audio': {
      const file = mediaFile(value, type, type === 'image' ? IMAGE_TYPES : AUDIO_TYPES);
      if (!file) throw new NodeInputError(`${what}: Invalid ${type} format`);
      return file;
    }
    case 'image[]':
    case 'audio[]': {
      const kind = type === 'image[]' ? 'image' : 'audio';
      const list = Array.isArray(value) ? value : null;
      const files = list?.map((v) => mediaFile(v, kind, kind === 'image' ? IMAGE_TYPES : AUDIO_TYPES));
      if (!files || files.some((f) => f === null))
        throw new NodeInputError(`${what}: Invalid ${kind} array format`);
      return files;
    }
    default:
      return documentFile(value, type, what);
  }
}

/** The input node's outputs: query, history and each custom field, checked and coerced. */
export function readInputs(fields: readonly InputCustomField[], inputs: Readonly<Record<string, unknown>>) {
  const outputs: Record<string, unknown> = {
    query: isMissing(inputs.query) ? '' : stringifyValue(inputs.query),
    history: toChatMessages(inputs.history),
  };
  for (const field of fields) {
    const value = inputs[field.name];
    const what = `The input "${field.name}"`;
    if (isMissing(value)) {
      if (field.isMandatory) throw new NodeInputError(`${what} is required.`);
      outputs[field.name] = emptyInputValue(field.type);
    } else {
      outputs[field.name] = coerceInput(field.type, value, what);
    }
  }
  return outputs;
}
