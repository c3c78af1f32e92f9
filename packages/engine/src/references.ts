import { REFERENCE_SOURCE } from '@atelier/schemas';

/** One `{{#node_id.output.path#}}` inside a value. */
export interface Reference {
  /** The text as written, braces included. */
  raw: string;
  nodeId: string;
  output: string;
  /** Keys and indexes below the output (`items.0.name` gives ['items', '0', 'name']). */
  path: string[];
}

/** The outputs of the nodes that ran so far, by node id. */
export type OutputLookup = (nodeId: string) => Readonly<Record<string, unknown>> | undefined;

const WHOLE = new RegExp(`^${REFERENCE_SOURCE}$`);
const MARK = '{{#';

const toReference = (raw: string, nodeId: string, rest: string): Reference => {
  const [output = '', ...path] = rest.split('.');
  return { raw, nodeId, output, path };
};

/** The references written in a text, in order. */
export function parseReferences(text: string): Reference[] {
  if (!text.includes(MARK)) return [];
  const found: Reference[] = [];
  for (const m of text.matchAll(new RegExp(REFERENCE_SOURCE, 'g'))) {
    found.push(toReference(m[0], m[1]!, m[2]!));
  }
  return found;
}

/** Whether the text is exactly one reference (so it resolves to the value itself, with its own type). */
export function wholeReference(text: string): Reference | null {
  if (!text.startsWith(MARK)) return null;
  const m = WHOLE.exec(text);
  return m ? toReference(m[0], m[1]!, m[2]!) : null;
}

/** Follows a path of keys (and array indexes) into a value; undefined when a step is missing. */
export function walkPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

/** The value a reference points to, or undefined when the node did not run or has no such output. */
export function lookupReference(
  ref: Pick<Reference, 'nodeId' | 'output' | 'path'>,
  lookup: OutputLookup,
): unknown {
  const outputs = lookup(ref.nodeId);
  if (!outputs || !Object.hasOwn(outputs, ref.output)) return undefined;
  return walkPath(outputs[ref.output], ref.path);
}

/** Resolves `node_id.output.path` written without braces (an iteration's output selector). */
export function resolvePath(path: string, lookup: OutputLookup): unknown {
  const [nodeId = '', output = '', ...rest] = path.trim().split('.');
  return lookupReference({ nodeId, output, path: rest }, lookup);
}

/** How a value reads inside a longer text: strings as they are, nothing for null, JSON for the rest. */
export function stringifyValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * Resolves the references of a text. A text that is one whole reference gives the value itself (an
 * object stays an object; a missing value gives null); references inside a longer text are replaced by
 * their text form, missing ones by nothing.
 */
export function resolveText(text: string, lookup: OutputLookup): unknown {
  if (!text.includes(MARK)) return text;
  const whole = wholeReference(text);
  if (whole) return lookupReference(whole, lookup) ?? null;
  return text.replace(new RegExp(REFERENCE_SOURCE, 'g'), (_raw, nodeId: string, rest: string) =>
    stringifyValue(lookupReference(toReference('', nodeId, rest), lookup)),
  );
}

/** Resolves every reference in a value, through objects and arrays. Values without any are returned as is. */
export function resolveValue(value: unknown, lookup: OutputLookup): unknown {
  if (typeof value === 'string') return resolveText(value, lookup);
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, lookup));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveValue(v, lookup);
    return out;
  }
  return value;
}

/** Calls `visit` for each reference in a value, through objects and arrays, with the key path to it. */
export function forEachReference(
  value: unknown,
  visit: (ref: Reference, where: string) => void,
  where = '',
): void {
  if (typeof value === 'string') {
    for (const ref of parseReferences(value)) visit(ref, where);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => forEachReference(v, visit, where ? `${where}.${i}` : String(i)));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) forEachReference(v, visit, where ? `${where}.${k}` : k);
  }
}

/** Whether a value holds at least one reference. */
export function hasReferences(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(MARK) && parseReferences(value).length > 0;
  if (Array.isArray(value)) return value.some(hasReferences);
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasReferences);
  return false;
}

/** The ids of the nodes a value refers to, each once, in order of appearance. */
export function referencedNodeIds(value: unknown): string[] {
  const ids = new Set<string>();
  forEachReference(value, (ref) => ids.add(ref.nodeId));
  return [...ids];
}
