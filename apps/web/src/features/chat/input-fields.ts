import type { InputFieldType } from '@atelier/schemas';
import type { ChatError } from './errors';

export interface InputField {
  name: string;
  type: InputFieldType;
  is_mandatory: boolean;
}

/** What an input holds while the user edits it: text, a boolean, or the chosen file(s). */
export type InputValue = string | number | boolean | File | File[] | null;

export const IMAGE_TYPES = ['jpeg', 'png', 'gif', 'webp'] as const;
export const AUDIO_TYPES = ['mp3', 'mp4', 'mpeg', 'm4a', 'wav', 'webm'] as const;

/** File inputs other than images and audio, with the extensions they accept. */
export const DOCUMENT_EXTENSIONS = {
  pdf: ['.pdf'],
  pptx: ['.pptx'],
  markdown: ['.md', '.markdown'],
  csv: ['.csv'],
  json: ['.json'],
  docx: ['.docx'],
  odt: ['.odt'],
} as const satisfies Partial<Record<InputFieldType, readonly string[]>>;
type DocumentType = keyof typeof DOCUMENT_EXTENSIONS;

const STRING_LIKE = new Set<InputFieldType>(['string']);
const ARRAY_TYPES = new Set<InputFieldType>(['string[]', 'number[]', 'object[]', 'ChatMessage[]']);
const SAMPLES: Partial<Record<InputFieldType, string>> = {
  object: '{\n  "key": "value"\n}',
  'string[]': '["item1", "item2"]',
  'number[]': '[1, 2, 3]',
  'object[]': '[{ "key": "value" }]',
  'ChatMessage[]': '[{ "role": "user", "content": "Hello" }]',
};

export const isDocumentType = (type: InputFieldType): type is DocumentType => type in DOCUMENT_EXTENSIONS;
export const isFileType = (type: InputFieldType) =>
  type === 'image' || type === 'image[]' || type === 'audio' || type === 'audio[]' || isDocumentType(type);
export const isMultipleFiles = (type: InputFieldType) => type === 'image[]' || type === 'audio[]';

/** Defaults per type: string empty, number 1, boolean false, objects and arrays sample JSON, files empty. */
export function defaultValue(type: InputFieldType): InputValue {
  if (type === 'number') return 1;
  if (type === 'boolean') return false;
  if (isMultipleFiles(type)) return [];
  if (isFileType(type)) return null;
  return SAMPLES[type] ?? '';
}

export const defaultValues = (fields: readonly InputField[]): Record<string, InputValue> =>
  Object.fromEntries(fields.map((f) => [f.name, defaultValue(f.type)]));

/** The accept attribute of a file input. */
export function acceptFor(type: InputFieldType): string {
  if (type === 'image' || type === 'image[]') return IMAGE_TYPES.map((t) => `image/${t}`).join(',');
  if (type === 'audio' || type === 'audio[]') return `audio/*,${AUDIO_TYPES.map((t) => `.${t}`).join(',')}`;
  return isDocumentType(type) ? DOCUMENT_EXTENSIONS[type].join(',') : '';
}

const extension = (name: string) => name.toLowerCase().split('.').pop() ?? '';

export function isValidImage(value: unknown): boolean {
  if (typeof value === 'string') return value.startsWith('data:image/');
  return (
    value instanceof File && (IMAGE_TYPES as readonly string[]).includes(value.type.replace(/^image\//, ''))
  );
}

export function isValidAudio(value: unknown): boolean {
  if (typeof value === 'string') return value.startsWith('data:audio/');
  if (!(value instanceof File)) return false;
  const subtype = value.type.split('/')[1] ?? '';
  const known = AUDIO_TYPES as readonly string[];
  return known.includes(subtype.replace(/^x-/, '')) || known.includes(extension(value.name));
}

export function isValidDocument(type: DocumentType, value: unknown): boolean {
  if (typeof value === 'string') return value.startsWith('data:');
  const extensions: readonly string[] = DOCUMENT_EXTENSIONS[type];
  return value instanceof File && extensions.some((ext) => value.name.toLowerCase().endsWith(ext));
}

const isBlank = (value: InputValue | undefined) =>
  value === null ||
  value === undefined ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/** The first problem with a field's value, or null. */
export function validateInput(field: InputField, value: InputValue | undefined): ChatError | null {
  if (isBlank(value)) return field.is_mandatory ? { key: 'chatPage.errors.required' } : null;
  const { type } = field;
  if (type === 'image') return isValidImage(value) ? null : { key: 'chatPage.errors.invalidImage' };
  if (type === 'image[]') {
    return Array.isArray(value) && value.every(isValidImage)
      ? null
      : { key: 'chatPage.errors.invalidImageArray' };
  }
  if (type === 'audio') return isValidAudio(value) ? null : { key: 'chatPage.errors.invalidAudio' };
  if (type === 'audio[]') {
    return Array.isArray(value) && value.every(isValidAudio)
      ? null
      : { key: 'chatPage.errors.invalidAudioArray' };
  }
  if (isDocumentType(type) && !isValidDocument(type, value)) {
    return {
      key: 'chatPage.errors.invalidFile',
      params: { extensions: DOCUMENT_EXTENSIONS[type].join(', ') },
    };
  }
  if (type === 'number' && !Number.isFinite(Number(value))) return { key: 'chatPage.errors.invalidNumber' };
  return null;
}

export function coerceBoolean(value: unknown): boolean {
  if (typeof value === 'string') return ['true', '1', 'yes', 'on'].includes(value.trim().toLowerCase());
  return Boolean(value);
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Values of string-like and array types become text; number a number; boolean is coerced. */
export function coerceValue(type: InputFieldType, value: unknown): unknown {
  if (STRING_LIKE.has(type) || ARRAY_TYPES.has(type)) return asText(value);
  if (type === 'number') return typeof value === 'number' ? value : Number(asText(value).trim());
  if (type === 'boolean') return coerceBoolean(value);
  return value;
}

/** A chat additional input as typed: parsed as JSON where possible, otherwise trimmed. */
export function parseChatInput(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value.trim();
  }
}
