import { createHash } from 'node:crypto';
import { KnowledgeError, visitFilter, type JsonValue, type MetadataFilter } from './vector-store';

/** A Qdrant filter or condition, as its REST API takes it. */
export type QdrantCondition = Record<string, unknown>;
export interface QdrantFilter extends QdrantCondition {
  must?: QdrantCondition[];
  should?: QdrantCondition[];
  must_not?: QdrantCondition[];
}

// A fixed namespace for UUIDv5 (RFC 9562): Atelier's chunk ids always map to the same point ids.
const NAMESPACE = Buffer.from('6f1c3b52a0e94d8e9b0f3c2d7a5e41b8', 'hex');

/** Qdrant point ids are UUIDs or integers: a chunk id becomes the UUIDv5 of it (the id stays in the payload). */
export function pointId(id: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(id, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Where the chunk's metadata lives in the payload: `{ id, content, content_hash, metadata }`. */
export const METADATA_KEY = 'metadata';

function invalid(detail: string): never {
  throw new KnowledgeError(422, 'invalid_filter', detail);
}

/** A dotted metadata path as a Qdrant payload key: plain segments as they are, others quoted. */
export function payloadKey(field: string): string {
  const parts = field.split('.').map((part) => {
    if (/^[A-Za-z0-9_-]+$/.test(part)) return part;
    if (/["[\]]/.test(part)) invalid(`Qdrant payload keys cannot hold ", [ or ]: ${JSON.stringify(part)}`);
    return `"${part}"`;
  });
  return [METADATA_KEY, ...parts].join('.');
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function equals(key: string, value: JsonValue): QdrantCondition {
  if (value === null) return { is_null: { key } };
  if (typeof value === 'string' || typeof value === 'boolean') return { key, match: { value } };
  if (typeof value === 'number') {
    // Qdrant matches integers exactly; other numbers by a closed range.
    return Number.isInteger(value) ? { key, match: { value } } : { key, range: { gte: value, lte: value } };
  }
  return invalid('Qdrant compares strings, numbers, booleans and null, not arrays or objects');
}

/**
 * Compiles our filter language to a Qdrant filter over the payload's `metadata`. Differences from the
 * SQL stores, from Qdrant's semantics: eq/ne/in on an array field match when any element does;
 * gt/gte/lt/lte on strings work for ISO dates and times only (Qdrant's datetime range), other strings
 * are refused; `contains` matches an array element or a substring (on an array of strings, also a
 * substring of an element).
 */
export function compileQdrantFilter(filter: MetadataFilter): QdrantFilter {
  const condition = visitFilter<QdrantCondition>(filter, {
    group: (kind, parts) => (kind === 'and' ? { must: parts } : { should: parts }),
    leaf: (field, op, value) => {
      const key = payloadKey(field);
      switch (op) {
        case 'eq':
          return equals(key, value);
        case 'ne':
          return { must_not: [equals(key, value)] };
        case 'in': {
          const values = value as JsonValue[];
          const strings = values.every((v) => typeof v === 'string');
          const integers = values.every((v) => typeof v === 'number' && Number.isInteger(v));
          return strings || integers
            ? { key, match: { any: values } }
            : { should: values.map((v) => equals(key, v)) };
        }
        case 'gt':
        case 'gte':
        case 'lt':
        case 'lte':
          if (typeof value === 'string' && !ISO_DATE.test(value)) {
            invalid('Qdrant compares strings only as ISO dates or times (2024-01-05, 2024-01-05T10:00:00Z)');
          }
          return { key, range: { [op]: value } };
        case 'contains':
          if (typeof value === 'string') {
            return {
              should: [
                { key, match: { value } },
                { key, match: { text: value } },
              ],
            };
          }
          return equals(key, value);
      }
    },
  });
  return 'must' in condition || 'should' in condition || 'must_not' in condition
    ? (condition as QdrantFilter)
    : { must: [condition] };
}
