import { z } from 'zod';
import type { ModelType } from '../constants';

/** How the editor renders a field. */
export const fieldKinds = [
  'text',
  'textarea',
  'number',
  'boolean',
  'select',
  'model',
  'collection',
  'connector',
  'secret',
  'credential',
  'tools',
  'json',
  'custom-fields',
  'conditions',
] as const;
export type FieldKind = (typeof fieldKinds)[number];

export interface FieldOption {
  value: string;
  /** A translation key; without one the value itself is shown (sizes, formats, HTTP methods, voices). */
  label?: string;
}

/**
 * What the editor needs to render one field of a node, and what validation checks. `label` and `help`
 * are translation keys (`nodeCatalog.…`, in the web app's locale files), never English text; `placeholder`
 * is an example value (a URL, an id), shown as is.
 */
export interface FieldMeta {
  name: string;
  label: string;
  kind: FieldKind;
  /** A run needs a non-empty value (only while the field is visible, see `visibleWhen`). */
  required: boolean;
  options?: readonly FieldOption[];
  /** Model pickers list models of this type. */
  modelType?: ModelType;
  help?: string;
  placeholder?: string;
  min?: number;
  max?: number;
  /** The field only applies when another field has this value (e.g. a storage mode). */
  visibleWhen?: { field: string; equals: string | number | boolean };
}

export const nodeCategories = [
  'io',
  'models',
  'media',
  'knowledge',
  'loaders',
  'splitters',
  'tools',
  'logic',
] as const;
export type NodeCategory = (typeof nodeCategories)[number];

/**
 * One kind of node. `fields` is the schema of the field values once references are resolved (numbers and
 * booleans are coerced, defaults filled in); `defaults` is what a new node starts with.
 */
export interface NodeDefinition<T extends string = string, S extends z.ZodType = z.ZodType> {
  type: T;
  /** Translation key of the node's name (`nodeCatalog.nodes.<type>.label`). */
  label: string;
  category: NodeCategory;
  /** Translation key of what the node does (`nodeCatalog.nodes.<type>.description`). */
  description: string;
  fields: S;
  fieldMeta: readonly FieldMeta[];
  /** Output names other nodes may reference (the input and output nodes add their own fields). */
  outputs: readonly string[];
  /** An agent can call it; attached to an agent it is not run as a step of its own. */
  isTool: boolean;
  /** It holds child nodes (parentId = its id) that it runs itself. */
  isContainer: boolean;
  /** Outputs its children may reference while it runs them (an iteration's item and index). */
  childOutputs: readonly string[];
  /** Its outgoing edges leave from named handles, one per branch, and only the chosen one is followed. */
  branching: boolean;
  defaults: z.output<S>;
}

type DefinitionInput<T extends string, S extends z.ZodType> = Omit<
  NodeDefinition<T, S>,
  'defaults' | 'isTool' | 'isContainer' | 'childOutputs' | 'branching'
> &
  Partial<Pick<NodeDefinition<T, S>, 'isTool' | 'isContainer' | 'childOutputs' | 'branching'>>;

export function defineNode<const T extends string, S extends z.ZodType>(
  input: DefinitionInput<T, S>,
): NodeDefinition<T, S> {
  return {
    isTool: false,
    isContainer: false,
    childOutputs: [],
    branching: false,
    ...input,
    defaults: input.fields.parse(undefined),
  };
}

/** Options shown as their own values (sizes, formats, HTTP methods): nothing to translate. */
export const options = (...values: readonly string[]): FieldOption[] => values.map((value) => ({ value }));

/** Options whose names are translated: `nodeCatalog.options.<field>.<value>`. */
export const namedOptions = (field: string, ...values: readonly string[]): FieldOption[] =>
  values.map((value) => ({ value, label: `nodeCatalog.options.${field}.${value}` }));

/** Whether a node's label is a catalog key (shown translated) rather than a name a person typed. */
export const isCatalogKey = (text: string): boolean => text.startsWith('nodeCatalog.');

/**
 * Field schemas for resolved values. A text field may receive any value through a whole-value reference;
 * it is turned into text (JSON for non-strings) so node code always sees a string.
 */
const asText = (v: unknown): unknown =>
  v === null || v === undefined
    ? undefined
    : typeof v === 'string'
      ? v
      : typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : JSON.stringify(v);

export const text = (fallback = '') => z.preprocess(asText, z.string().default(fallback));

const asNumber = (v: unknown): unknown =>
  v === null || v === undefined || (typeof v === 'string' && v.trim() === '') ? undefined : v;
export const num = (fallback: number, min = -Infinity, max = Infinity) =>
  z.preprocess(asNumber, z.coerce.number().min(min).max(max).default(fallback));
export const optionalNum = (min = -Infinity, max = Infinity) =>
  z.preprocess(asNumber, z.coerce.number().min(min).max(max).optional());

const asBoolean = (v: unknown): unknown => {
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (s === 'true' || s === '1' || s === 'yes') return true;
    if (s === 'false' || s === '0' || s === 'no' || s === '') return false;
  }
  return typeof v === 'number' ? v !== 0 : (v ?? undefined);
};
export const bool = (fallback: boolean) => z.preprocess(asBoolean, z.boolean().default(fallback));

export const choice = <const V extends readonly [string, ...string[]]>(values: V, fallback: V[number]) =>
  z.preprocess(asText, z.enum(values).default(fallback));

/** A JSON field: an object or array as is, or text holding JSON. */
const asJson = (v: unknown): unknown => {
  if (typeof v !== 'string') return v ?? undefined;
  if (v.trim() === '') return undefined;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
};
export const jsonObject = () =>
  z.preprocess(
    asJson,
    z.record(z.string(), z.unknown()).default(() => ({})),
  );
export const jsonList = <S extends z.ZodType>(item: S, fallback: () => z.output<S>[]) =>
  z.preprocess(asJson, z.array(item).default(fallback));

/** A value whose shape the node checks itself (documents, files, histories, item lists). */
export const anyValue = () => z.unknown().optional();
