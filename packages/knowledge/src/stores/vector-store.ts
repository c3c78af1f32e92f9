import { createHash } from 'node:crypto';
import type { FullTextLanguage } from '@atelier/schemas/constants';

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
  /**
   * The vector index is built later (`buildVectorIndex`), once a whole ingestion is written: one index
   * build is several times faster than keeping the index up to date row by row. Until then search is
   * exact. Stores without such an index ignore it.
   */
  deferVectorIndex?: boolean;
  /**
   * The language full-text search reads the chunks in (stemming, stop words); `simple` by default.
   * Stores whose text search has no such setting ignore it.
   */
  textLanguage?: FullTextLanguage;
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

/** A change to the metadata of the chunks a filter matches: top-level fields set (added or replaced), then fields removed. */
export interface MetadataChange {
  set: Metadata;
  unset: readonly string[];
}

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

/** Hints for an upsert. */
export interface UpsertOptions {
  /**
   * A large load into an empty or small collection: a store may defer its index maintenance to one
   * build at the end (the built-in store rebuilds its HNSW index when the collection holds at most
   * twice as many rows as are loaded). Stores without such a path ignore it.
   */
  bulk?: boolean;
}

export interface VectorStore {
  readonly kind: string;
  createCollection(spec: CollectionSpec): Promise<CollectionSummary>;
  dropCollection(name: string): Promise<void>;
  listCollections(): Promise<CollectionSummary[]>;
  collectionInfo(name: string): Promise<CollectionInfo>;
  preview(name: string, options?: PreviewOptions): Promise<StoredChunk[]>;
  /** Inserts or replaces chunks by id, in batches; answers how many were written. */
  upsert(name: string, chunks: readonly ChunkInput[], options?: UpsertOptions): Promise<number>;
  deleteByIds(name: string, ids: readonly string[]): Promise<number>;
  deleteWhere(name: string, filter: MetadataFilter): Promise<number>;
  /**
   * Changes the metadata of the chunks a filter matches, in place (content, vectors and hashes stay);
   * answers how many it changed (a store may leave a chunk already so uncounted; one that cannot
   * tell counts every chunk matched).
   */
  updateMetadata(name: string, filter: MetadataFilter, change: MetadataChange): Promise<number>;
  query(name: string, query: VectorQuery): Promise<ScoredChunk[]>;
  textSearch(name: string, query: TextQuery): Promise<ScoredChunk[]>;
  /**
   * Builds a collection's deferred vector index; answers whether it built one (false: it existed, or
   * the collection is small enough to be searched exactly).
   */
  buildVectorIndex?(name: string): Promise<boolean>;
  /**
   * Whether vector searches of a collection run as they are meant to: on its vector index, or exactly
   * while it is small enough (false while the index is deferred or being built, and when it is empty).
   */
  vectorSearchReady?(name: string): Promise<boolean>;
  close(): Promise<void>;
}

export function contentHash(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

export const MAX_TOP_K = 1000;
/** The most rows one preview page holds. */
export const PREVIEW_MAX = 100;

/** A preview page's limit (10 by default, 1 to PREVIEW_MAX) and offset (0 or more); 422 otherwise. */
export function checkPreviewPage(options: PreviewOptions): { limit: number; offset: number } {
  const limit = options.limit ?? 10;
  const offset = options.offset ?? 0;
  if (
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > PREVIEW_MAX ||
    !Number.isInteger(offset) ||
    offset < 0
  ) {
    throw new KnowledgeError(422, 'invalid_page', `limit is 1 to ${PREVIEW_MAX}, offset 0 or more`);
  }
  return { limit, offset };
}

export function checkTopK(topK: number): number {
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) {
    throw new KnowledgeError(422, 'invalid_top_k', `topK must be an integer from 1 to ${MAX_TOP_K}`);
  }
  return topK;
}

/** Checks a vector's length and numbers; 422 otherwise. */
export function validateVector(vector: readonly number[], dimension: number): void {
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
}

/** Checks a vector (see validateVector) and answers pgvector's text form of it. */
export function checkVector(vector: readonly number[], dimension: number): string {
  validateVector(vector, dimension);
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

/** How a store turns a checked filter into its own form: one call per leaf, one per and/or group. */
export interface FilterVisitor<T> {
  leaf(field: string, op: FilterOp, value: JsonValue): T;
  group(kind: 'and' | 'or', parts: T[]): T;
}

/**
 * Checks `filter` (shape, operators, sizes, depth) and folds it with `visitor`. Every store compiles
 * filters through this, so they all refuse the same malformed filters with 422 `invalid_filter`.
 */
export function visitFilter<T>(filter: MetadataFilter, visitor: FilterVisitor<T>): T {
  let nodes = 0;
  const walk = (node: unknown, depth: number): T => {
    if (++nodes > MAX_FILTER_NODES) invalidFilter(`A filter has at most ${MAX_FILTER_NODES} conditions`);
    if (depth > MAX_FILTER_DEPTH) invalidFilter(`A filter nests at most ${MAX_FILTER_DEPTH} levels`);
    if (!isObject(node)) invalidFilter('Each filter is an object');
    if ('and' in node || 'or' in node) {
      const key = 'and' in node ? 'and' : 'or';
      const list = node[key];
      if (Object.keys(node).length !== 1 || !Array.isArray(list) || list.length === 0) {
        invalidFilter(`"${key}" takes a non-empty array of filters and nothing beside it`);
      }
      return visitor.group(
        key,
        list.map((child) => walk(child, depth + 1)),
      );
    }
    const { field, op, value } = node as { field?: unknown; op?: unknown; value?: unknown };
    if (typeof field !== 'string' || !FIELD_PATTERN.test(field)) {
      invalidFilter('"field" is a metadata key or a dotted path of keys');
    }
    if (typeof op !== 'string' || !FILTER_OPS.includes(op as FilterOp)) {
      invalidFilter(`"op" is one of ${FILTER_OPS.join(', ')}`);
    }
    if (value === undefined) invalidFilter('"value" is required');
    if (op === 'in' && (!Array.isArray(value) || value.length === 0)) {
      invalidFilter('"in" takes a non-empty array of values');
    }
    if (
      (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') &&
      !(typeof value === 'number' && Number.isFinite(value)) &&
      typeof value !== 'string'
    ) {
      invalidFilter(`"${op}" compares with a number or a string`);
    }
    return visitor.leaf(field, op as FilterOp, value as JsonValue);
  };
  return walk(filter, 0);
}

/** Compiles `filter` to a boolean SQL expression over the JSONB expression `metadata`. */
export function compileFilter(filter: MetadataFilter, metadata: string, params: Params): string {
  return visitFilter<string>(filter, {
    group: (kind, parts) => `(${parts.join(kind === 'and' ? ' AND ' : ' OR ')})`,
    leaf: (field, op, value) => {
      const target = `(${metadata}${field
        .split('.')
        .map((key) => ` -> ${params.add(key)}::text`)
        .join('')})`;
      const json = (v: unknown) => `${params.add(JSON.stringify(v))}::jsonb`;
      switch (op) {
        case 'eq':
          return `(${target} = ${json(value)})`;
        case 'ne':
          return `(${target} IS DISTINCT FROM ${json(value)})`;
        case 'in':
          return `(EXISTS (SELECT 1 FROM jsonb_array_elements(${json(value)}) AS candidate WHERE candidate = ${target}))`;
        case 'gt':
        case 'gte':
        case 'lt':
        case 'lte': {
          const sqlOp = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[op];
          if (typeof value === 'number') {
            return `(CASE WHEN jsonb_typeof(${target}) = 'number' THEN (${target} #>> '{}')::numeric ${sqlOp} ${params.add(String(value))}::numeric ELSE false END)`;
          }
          return `(CASE WHEN jsonb_typeof(${target}) = 'string' THEN (${target} #>> '{}') ${sqlOp} ${params.add(value)}::text ELSE false END)`;
        }
        case 'contains': {
          const asText =
            typeof value === 'string'
              ? `strpos(${target} #>> '{}', ${params.add(value)}::text) > 0`
              : 'false';
          return `(CASE jsonb_typeof(${target}) WHEN 'array' THEN ${target} @> jsonb_build_array(${json(value)}) WHEN 'string' THEN ${asText} ELSE false END)`;
        }
      }
    },
  });
}
