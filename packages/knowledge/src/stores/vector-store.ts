import { createHash } from 'node:crypto';

/** An error the knowledge capability answers with: an HTTP-like status, a stable code, a readable detail. */
export class KnowledgeError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'KnowledgeError';
  }
}

export type Distance = 'cosine' | 'l2' | 'inner_product';
export const DISTANCES: readonly Distance[] = ['cosine', 'l2', 'inner_product'];

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type Metadata = { [key: string]: JsonValue };

/** What a caller upserts: the store computes the content hash. */
export interface ChunkInput {
  id: string;
  content: string;
  embedding: readonly number[];
  metadata?: Metadata;
}

export interface StoredChunk {
  id: string;
  content: string;
  /** sha256 of the content, hex. */
  contentHash: string;
  metadata: Metadata;
}

export interface ScoredChunk extends StoredChunk {
  /** cosine: 1 - cosine distance; l2: -euclidean distance; inner_product: the inner product. Higher is closer. */
  score: number;
}

export interface CollectionSpec {
  name: string;
  dimension: number;
  distance?: Distance;
}

export interface CollectionSummary {
  name: string;
  dimension: number;
  distance: Distance;
  /** false for an external table the store only reads. */
  writable: boolean;
}

export interface CollectionInfo extends CollectionSummary {
  count: number;
  /** Top-level metadata keys present in the collection, sorted. */
  metadataKeys: string[];
}

export type FilterOp = 'eq' | 'ne' | 'in' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains';
export const FILTER_OPS: readonly FilterOp[] = ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte', 'contains'];

/**
 * A metadata filter, as data. `field` is a top-level key or a dotted path (`author.name`).
 * eq/ne compare JSON values; in takes an array of values; gt/gte/lt/lte compare numbers with numbers
 * and strings with strings (ISO dates order as strings); contains is "array has element" for array
 * fields and "has substring" for string fields.
 */
export type MetadataFilter =
  { field: string; op: FilterOp; value: JsonValue } | { and: MetadataFilter[] } | { or: MetadataFilter[] };

export interface VectorQuery {
  vector: readonly number[];
  topK: number;
  filter?: MetadataFilter | undefined;
}

export interface TextQuery {
  query: string;
  topK: number;
  filter?: MetadataFilter | undefined;
}

export interface PreviewOptions {
  limit?: number;
  offset?: number;
}

export interface VectorStore {
  readonly kind: string;
  createCollection(spec: CollectionSpec): Promise<CollectionSummary>;
  dropCollection(name: string): Promise<void>;
  listCollections(): Promise<CollectionSummary[]>;
  collectionInfo(name: string): Promise<CollectionInfo>;
  preview(name: string, options?: PreviewOptions): Promise<StoredChunk[]>;
  /** Inserts or replaces chunks by id, in batches; answers how many were written. */
  upsert(name: string, chunks: readonly ChunkInput[]): Promise<number>;
  deleteByIds(name: string, ids: readonly string[]): Promise<number>;
  deleteWhere(name: string, filter: MetadataFilter): Promise<number>;
  query(name: string, query: VectorQuery): Promise<ScoredChunk[]>;
  textSearch(name: string, query: TextQuery): Promise<ScoredChunk[]>;
  close(): Promise<void>;
}

export function contentHash(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

export const MAX_TOP_K = 1000;

export function checkTopK(topK: number): number {
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
    throw new KnowledgeError(422, 'invalid_top_k', `topK must be an integer from 1 to ${MAX_TOP_K}`);
  }
  return topK;
}

export function checkVector(vector: readonly number[], dimension: number): string {
  if (!Array.isArray(vector) || vector.length !== dimension) {
    throw new KnowledgeError(
      422,
      'dimension_mismatch',
      `Expected a vector of ${dimension} numbers, got ${Array.isArray(vector) ? vector.length : typeof vector}`,
    );
  }
  for (const x of vector) {
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new KnowledgeError(422, 'invalid_vector', 'Vectors hold finite numbers only');
    }
  }
  return `[${vector.join(',')}]`;
}

// ---------------------------------------------------------------------------------------------
// The filter language compiled to SQL. Values and field names always travel as parameters; the only
// text spliced into the statement is the metadata expression the store passes (built from validated
// identifiers) and fixed operators.

const MAX_FILTER_NODES = 200;
const MAX_FILTER_DEPTH = 10;
const FIELD_PATTERN = /^[^.\s][^.]{0,127}(\.[^.\s][^.]{0,127}){0,7}$/;

/** Adds parameters to a statement; answers the placeholder (`$n`) of each. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function invalidFilter(detail: string): never {
  throw new KnowledgeError(422, 'invalid_filter', detail);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Compiles `filter` to a boolean SQL expression over the JSONB expression `metadata`. */
export function compileFilter(filter: MetadataFilter, metadata: string, params: Params): string {
  let nodes = 0;
  const walk = (node: unknown, depth: number): string => {
    if (++nodes > MAX_FILTER_NODES) invalidFilter(`A filter has at most ${MAX_FILTER_NODES} conditions`);
    if (depth > MAX_FILTER_DEPTH) invalidFilter(`A filter nests at most ${MAX_FILTER_DEPTH} levels`);
    if (!isObject(node)) invalidFilter('Each filter is an object');
    if ('and' in node || 'or' in node) {
      const key = 'and' in node ? 'and' : 'or';
      const list = node[key];
      if (Object.keys(node).length !== 1 || !Array.isArray(list) || list.length === 0) {
        invalidFilter(`"${key}" takes a non-empty array of filters and nothing beside it`);
      }
      const parts = list.map((child) => walk(child, depth + 1));
      return `(${parts.join(key === 'and' ? ' AND ' : ' OR ')})`;
    }
    const { field, op, value } = node as { field?: unknown; op?: unknown; value?: unknown };
    if (typeof field !== 'string' || !FIELD_PATTERN.test(field)) {
      invalidFilter('"field" is a metadata key or a dotted path of keys');
    }
    if (typeof op !== 'string' || !FILTER_OPS.includes(op as FilterOp)) {
      invalidFilter(`"op" is one of ${FILTER_OPS.join(', ')}`);
    }
    if (value === undefined) invalidFilter('"value" is required');
    const target = `(${metadata}${field
      .split('.')
      .map((key) => ` -> ${params.add(key)}::text`)
      .join('')})`;
    const json = (v: unknown) => `${params.add(JSON.stringify(v))}::jsonb`;
    switch (op as FilterOp) {
      case 'eq':
        return `(${target} = ${json(value)})`;
      case 'ne':
        return `(${target} IS DISTINCT FROM ${json(value)})`;
      case 'in': {
        if (!Array.isArray(value) || value.length === 0)
          invalidFilter('"in" takes a non-empty array of values');
        return `(EXISTS (SELECT 1 FROM jsonb_array_elements(${json(value)}) AS candidate WHERE candidate = ${target}))`;
      }
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte': {
        const sqlOp = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[op as 'gt' | 'gte' | 'lt' | 'lte'];
        if (typeof value === 'number' && Number.isFinite(value)) {
          return `(CASE WHEN jsonb_typeof(${target}) = 'number' THEN (${target} #>> '{}')::numeric ${sqlOp} ${params.add(String(value))}::numeric ELSE false END)`;
        }
        if (typeof value === 'string') {
          return `(CASE WHEN jsonb_typeof(${target}) = 'string' THEN (${target} #>> '{}') ${sqlOp} ${params.add(value)}::text ELSE false END)`;
        }
        return invalidFilter(`"${String(op)}" compares with a number or a string`);
      }
      case 'contains': {
        const asText =
          typeof value === 'string' ? `strpos(${target} #>> '{}', ${params.add(value)}::text) > 0` : 'false';
        return `(CASE jsonb_typeof(${target}) WHEN 'array' THEN ${target} @> jsonb_build_array(${json(value)}) WHEN 'string' THEN ${asText} ELSE false END)`;
      }
    }
  };
  return walk(filter, 0);
}
