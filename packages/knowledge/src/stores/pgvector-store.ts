import { availableParallelism, endianness } from 'node:os';
import pg from 'pg';
import { fullTextLanguages, type FullTextLanguage } from '@atelier/schemas/constants';
import { parseTextQuery } from './keywords';
import { bitSketchOf, SKETCH_BITS, sketchOf } from './sketch';
import { poolClient, toSqlClient, type QueryFn, type SqlClient, type SqlSource } from './sql-client';
import {
  DISTANCES,
  KnowledgeError,
  Params,
  checkPreviewPage,
  checkTopK,
  checkVector,
  compileFilter,
  contentHash,
  validateVector,
  type ChunkInput,
  type CollectionInfo,
  type CollectionSpec,
  type CollectionSummary,
  type Distance,
  type JsonValue,
  type Metadata,
  type MetadataChange,
  type MetadataFilter,
  type PreviewOptions,
  type ScoredChunk,
  type StoredChunk,
  type TextQuery,
  type UpsertOptions,
  type VectorQuery,
  type VectorStore,
} from './vector-store';

export interface PgvectorStoreOptions {
  /** The schema holding the store's own collections (created lazily). Default `kb`. */
  schema?: string;
  /** The extension providing the `vector` type. Default `vector`; tests name a missing one. */
  extension?: string;
  /** Rows per INSERT statement. Default 500. */
  batchSize?: number;
  /** hnsw.ef_search of queries (at least 4 x topK). Default 150: recall@10 0.95 and more on 100,000 chunks (100: 0.94). */
  efSearch?: number;
  /** The most maintenance_work_mem a bulk load's index build may take, in MB. Default 1024. */
  buildMemoryMb?: number;
  /**
   * Parallel workers an HNSW build asks for (the server's max_parallel_maintenance_workers caps them);
   * the build's own process works too. Default: this machine's cores less one (the compose stack runs
   * PostgreSQL beside the API), at least 1.
   */
  buildWorkers?: number;
  /**
   * What the HNSW index of collections created from now on holds, or the precision of their sketch
   * (`sketchFrom`). Default `halfvec`; PGlite converts half floats in software: `vector` there.
   */
  vectorIndex?: 'halfvec' | 'vector';
  /**
   * Collections of embeddings at least this wide get a sketch index (see `sketch.ts`): HNSW over a
   * sketch of each vector (2,048 sign bits for cosine, 512 numbers for the other distances), whose
   * candidates the full vectors order. Default 1,024; `Infinity` never.
   */
  sketchFrom?: number;
  /**
   * Collections of at most this many chunks get no HNSW index: their searches are exact. For a database
   * that does one thing at a time (the embedded PGlite), where a build holds it whole. Default 0.
   */
  exactSearchUpTo?: number;
  /**
   * A keyword of a question that the collection's statistics (pg_stats) say more than this many chunks
   * hold is left out of its full-text search, unless every keyword is: ranking most of a large
   * collection costs a read of each of those rows. Default 5,000.
   */
  keywordRowsBound?: number;
}

/** Collection names of the built-in store: lower-case identifiers, so they are their own table names. */
const COLLECTION_NAME = /^[a-z][a-z0-9_]{0,47}$/;
/** Parts of an external `schema.table` name. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;
/** System schemas never hold collections. */
const SYSTEM_SCHEMA = /^(pg_|information_schema$)/i;
/**
 * The most dimensions a collection of the store may have: pgvector's `vector` type holds 16,000. Its
 * HNSW index takes up to 2,000 of `vector` and 4,000 of `halfvec`, so wider embeddings (3,072 of
 * OpenAI's text-embedding-3-large) are indexed as halfvec whatever `vectorIndex` says, and beyond
 * 4,000 (4,096-d models) a collection has no vector index: its searches are exact.
 */
export const MAX_DIMENSION = 16_000;
const VECTOR_INDEX_MAX_DIMENSION = 2_000;
const HALFVEC_INDEX_MAX_DIMENSION = 4_000;
const INIT_LOCK = 727_501_417;
/** A filter whose equalities match at most this many rows is answered by exact search over them. */
const EXACT_FILTER_ROWS = 2_000;
/**
 * The HNSW graph of the store's own collections: pgvector's defaults, written out. Cheaper graphs were
 * measured (`bench/knowledge/index-lab.ts`: 100,000 chunks of 1,536-d on 2 cores, 1 build worker; build
 * time, then recall@10 and SQL p50): m 16 / ef_construction 64 55.9 s, 0.967 / 8.5 ms at ef_search 150;
 * at ef_search 200: m 12 / 64 44.4 s, 0.974 / 7.8 ms; m 12 / 48 33.6-36.1 s, 0.957-0.973; m 10 / 48
 * 28.5 s, 0.945. They were not taken: with m 12 an exact top-10 over 3,000 random 24-d vectors missed
 * its tenth neighbour (pgvector-index.test.ts), and a quicker build is not worth answers that miss.
 */
const HNSW_BUILD = 'm = 16, ef_construction = 64';
/**
 * The sketch of a wide embedding (`sketch.ts`), how many of its nearest candidates the full vectors order
 * (the sketch index's ef_search at least), and the sketch graph. Measured on the bench corpus (100,000
 * chunks of 1,536-d, `index-lab.ts`, 2 build workers), against the halfvec index of the whole vector (m 16,
 * ef_construction 64: 50.3 s to build, 391 MB, recall@10 0.9725, SQL p50 6.15 ms at ef_search 150), as
 * graph, candidates: build, recall@10, SQL p50 (the index is 130 MB whatever the graph):
 * m 16 / 64, 200: 26.8 s, 0.976, 5.0 ms; m 16 / 40, 250: 19.6 s, 0.976, 6.5 ms; m 16 / 32, 300: 17.2 s,
 * 0.9715, 7.1 ms; **m 12 / 48, 300: 16.1 s, 0.9705, 6.7 ms**; m 12 / 40, 300: 14.3 s, 0.964; m 10 / 40,
 * 300: 0.9415; m 16 / 64 with 100 candidates: 0.95; 256 numbers instead of 512 (19.5 s): 0.90 with 200.
 * The graph needs less than the whole vector's: the 300 candidates it answers are ordered again. The
 * sketch's size and seed are part of the stored data: changing them needs a kind of its own.
 */
export const SKETCH_SIZE = 512;
export const SKETCH_CANDIDATES = 300;
const SKETCH_BUILD = 'm = 12, ef_construction = 48';
/**
 * The graph over a binary sketch (`sketch_bit`, cosine collections: `bitSketchOf`, 2,048 sign bits).
 * Hamming distance costs a few population counts, not 512 multiplications. Bench corpus (100,000
 * chunks of 1,536-d, `index-lab.ts` with LAB_BITS=1, 1 build worker, same hour; build, index, recall@10
 * of 300 candidates, SQL p50): m 16 / 48 13.0-14.1 s, 54 MB, 0.9775-0.9785, 7.5-8.3 ms against the
 * halfvec(512) sketch at m 12 / 48: 18.7 s, 130 MB, 0.9705, 9.7 ms. Other graphs (an earlier lab, sketches
 * of float64 vectors): m 12 / 48 10.1-11.1 s, 49 MB, 0.959-0.965; m 12 / 64 12.0 s, 0.968; m 16 / 40
 * 13.0 s, 0.971; m 16 / 64 17.0 s, 0.9825; m 16 / 100 27.4 s, 0.986. Searched exactly, the 300 nearest
 * by Hamming distance hold 0.997 of the true top-10 (0.978 with 1,024 bits, 0.858 with 512).
 * Taken: m 14 / 48. Three labs of one hour (2026-12-02, a slower machine, 1 build worker; build, recall@10,
 * SQL p50), m 16 / 48 against m 14 / 48: 21.0 / 12.5 s, 0.9815 / 0.972, 10.8 / 8.7 ms; 28.8 / 16.5 s,
 * 0.977 / 0.9705, 9.2 / 9.9 ms; m 16 alone 17.5 s, 0.9735. Against them: m 12 / 48 11.4-12.8 s, 0.9595-0.9625
 * (0.9735 at ef_search 400, 9.2 ms); m 12 / 64 14.1 s, 0.9715; m 14 / 40 14.9 s, 0.9595; m 10 / 40 12.8 s,
 * 0.939. A graph of 14 links a node (28 on layer 0) is built in 60-70 % of the time of 16 for about 0.007
 * of recall; the build is a third of an ingestion's CPU (the documents wait for it to be searched by index).
 */
const BIT_SKETCH_BUILD = 'm = 14, ef_construction = 48';
const SKETCH_FROM_DIMENSION = 1_024;
/** An HNSW graph element besides its vector: its links (m = 16: 32 on layer 0) and bookkeeping. */
const HNSW_ELEMENT_BYTES = 600;
const ENDIANNESS = endianness();

const OPERATORS: Record<Distance, { op: string; opclass: string; score: (d: number) => number }> = {
  cosine: { op: '<=>', opclass: 'cosine_ops', score: (d) => 1 - d },
  l2: { op: '<->', opclass: 'l2_ops', score: (d) => -d },
  // `<#>` is the negative inner product.
  inner_product: { op: '<#>', opclass: 'ip_ops', score: (d) => -d },
};

/**
 * What the HNSW index of one of the store's own collections holds. `halfvec`: the vectors cast to
 * half precision (an expression index; the column keeps full precision, which scores and re-ranks the
 * candidates): half the index, read faster and built several times faster, the same neighbours.
 * `vector`: the column itself (collections made before halfvec indexes). `sketch_halfvec` and
 * `sketch_vector`: the `sketch` column, 512 numbers per embedding in that precision, whose
 * SKETCH_CANDIDATES nearest the full vectors order (collections of the L2 and inner-product distances,
 * and cosine ones made before binary sketches). `sketch_bit`: the sketch as 2,048 sign bits, compared
 * by Hamming distance (cosine collections). `none`: no vector index, for embeddings wider than
 * any pgvector index takes (more than 4,000 dimensions) in a store without sketches: searches are exact.
 */
export type VectorIndexKind = (typeof KNOWN_KINDS)[number];
const KNOWN_KINDS = ['halfvec', 'vector', 'sketch_halfvec', 'sketch_vector', 'sketch_bit', 'none'] as const;
/** The precisions a store may be asked to index in. */
const PRECISIONS = ['halfvec', 'vector'] as const;

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function badName(name: unknown): never {
  throw new KnowledgeError(
    422,
    'invalid_collection_name',
    `Invalid collection name ${JSON.stringify(name)}: use lower-case letters, digits and _ (starting with a letter, at most 48), or schema.table for an external table`,
  );
}

function notFound(name: string): never {
  throw new KnowledgeError(404, 'collection_not_found', `No collection named ${JSON.stringify(name)}`);
}

/** Maps the database's answer to a missing or uncreatable extension to the store's 503. */
export function mapExtensionError(error: unknown, extension: string): unknown {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const text = message ?? String(error);
  const missing = (code === '0A000' && /extension/i.test(text)) || code === '58P01';
  const forbidden = code === '42501';
  if (!missing && !forbidden) return error;
  return new KnowledgeError(
    503,
    'vector_extension_missing',
    `This PostgreSQL has no pgvector extension (CREATE EXTENSION ${extension}: ${text}). ` +
      (forbidden
        ? 'The database user may not create it: have a superuser run CREATE EXTENSION vector once in this database. '
        : 'Install pgvector 0.8 or later on the database server (Debian/Ubuntu: the postgresql-<major>-pgvector package; ' +
          "Debian 12's PostgreSQL 15: shared/vendor/pgvector-0.8.6-pg15-amd64/install.sh; Docker: the pgvector/pgvector image); " +
          'the store creates the extension on its next use. ') +
      'Everything else in Atelier works without it.',
  );
}

/**
 * An error saying a remembered collection description is out of date: its table is gone (42P01), or
 * its vectors have another dimension than remembered.
 */
function isStale(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '42P01' || code === 'dimension_mismatch' || code === 'collection_not_found';
}

/** A registry's full-text language: one of the known configurations (anything else reads as simple). */
const textLanguageOf = (value: string | null): FullTextLanguage =>
  fullTextLanguages.find((language) => language === value) ?? 'simple';

/** How the store reads one collection: expressions over the alias `t`. */
interface Target {
  name: string;
  table: string;
  dimension: number;
  distance: Distance;
  writable: boolean;
  id: string;
  content: string;
  hash: string;
  metadata: string;
  embedding: string;
  tsv: string | null;
  /** The text search configuration `tsv` was made with (a checked name, written into statements). */
  textConfig: FullTextLanguage;
  /** Own collections: what their HNSW index holds. */
  index: VectorIndexKind | null;
}

/**
 * The rows a filter matches, for a statement changing them: the filter, and its equalities again as
 * containment, which lets the GIN index find the rows (a document's chunks among a whole
 * collection's) instead of a scan of the collection.
 */
function matching(target: Target, filter: MetadataFilter, params: Params): string {
  const where = compileFilter(filter, target.metadata, params);
  const contains = containment(filter);
  return contains
    ? `${where} AND ${target.metadata} @> ${params.add(JSON.stringify(contains))}::jsonb`
    : where;
}

interface ChunkRow {
  id: string;
  content: string;
  content_hash: string;
  metadata: Metadata | string | null;
  score?: number | string;
  distance?: number | string;
}

/** A search's row: the chunk, its distance, and the HNSW breadth it was searched with. */
interface SearchRow extends ChunkRow {
  ef_search: string | null;
}

function toChunk(row: ChunkRow): StoredChunk {
  const metadata =
    typeof row.metadata === 'string' ? (JSON.parse(row.metadata) as Metadata) : (row.metadata ?? {});
  return { id: row.id, content: row.content, contentHash: row.content_hash, metadata };
}

/** A kind of HNSW index (`none` is the absence of one). */
type HnswKind = Exclude<VectorIndexKind, 'none'>;

/** A kind of sketch index. */
export type SketchKind = 'sketch_halfvec' | 'sketch_vector' | 'sketch_bit';

const isSketch = (kind: VectorIndexKind | null): kind is SketchKind =>
  kind === 'sketch_halfvec' || kind === 'sketch_vector' || kind === 'sketch_bit';

/** The type a numeric index compares: `halfvec` or `vector`. */
const precisionOf = (kind: Exclude<HnswKind, 'sketch_bit'>): 'halfvec' | 'vector' =>
  kind === 'halfvec' || kind === 'sketch_halfvec' ? 'halfvec' : 'vector';

/** The type of a sketch column. */
const sketchType = (kind: SketchKind) =>
  kind === 'sketch_bit' ? `bit(${SKETCH_BITS})` : `${precisionOf(kind)}(${SKETCH_SIZE})`;

/** The operator class of a collection's HNSW index: a binary sketch's is Hamming distance. */
function opclassOf(kind: HnswKind, distance: Distance): string {
  return kind === 'sketch_bit' ? 'bit_hamming_ops' : `${precisionOf(kind)}_${OPERATORS[distance].opclass}`;
}

/**
 * How a search walks a sketch index: its operator, the sketch's type and the question's sketch as a
 * literal of that type (what a direct SQL query over the index writes too, as the bench's does).
 */
export function sketchProbe(
  kind: SketchKind,
  distance: Distance,
  dimension: number,
): { op: string; type: string; literal: (vector: ArrayLike<number>) => string } {
  if (kind === 'sketch_bit') return { op: '<~>', type: sketchType(kind), literal: bitSketchOf(dimension) };
  const sketch = sketchOf(dimension, SKETCH_SIZE);
  return {
    op: OPERATORS[distance].op,
    type: sketchType(kind),
    literal: (vector) => `[${sketch(vector).join(',')}]`,
  };
}

/** The expression the HNSW index of a collection holds (over the alias `t`, or bare with `alias` ''). */
function indexedExpression(kind: HnswKind, dimension: number, alias = 't.'): string {
  if (isSketch(kind)) return `${alias}sketch`;
  return kind === 'halfvec' ? `(${alias}embedding::halfvec(${dimension}))` : `${alias}embedding`;
}

/** The HNSW index of one of the store's own collections. */
function vectorIndexStatement(
  name: string,
  table: string,
  distance: Distance,
  kind: HnswKind,
  dimension: number,
): string {
  // Index names start with `_`, which collection names cannot, so they never collide with a table.
  const build = kind === 'sketch_bit' ? BIT_SKETCH_BUILD : isSketch(kind) ? SKETCH_BUILD : HNSW_BUILD;
  return `CREATE INDEX IF NOT EXISTS ${quoteIdent(`_${name}_hnsw`)} ON ${table} USING hnsw (${indexedExpression(kind, dimension, '')} ${opclassOf(kind, distance)}) WITH (${build})`;
}

/** The secondary indexes of one of the store's own collections (`vector`: the HNSW one too). */
function indexStatements(
  name: string,
  table: string,
  distance: Distance,
  kind: VectorIndexKind,
  dimension: number,
  vector = true,
): string[] {
  return [
    ...(vector && kind !== 'none' ? [vectorIndexStatement(name, table, distance, kind, dimension)] : []),
    `CREATE INDEX ${quoteIdent(`_${name}_tsv`)} ON ${table} USING gin (tsv)`,
    // Without fastupdate: a GIN index's pending list (up to 4 MB of entries not yet merged, the
    // metadata of tens of thousands of chunks) is read whole by every lookup. A document's chunks,
    // found by containment on each ingestion and delete, took 4.3 ms instead of 0.8 at 100,000 chunks.
    `CREATE INDEX ${quoteIdent(`_${name}_metadata`)} ON ${table} USING gin (metadata jsonb_path_ops) WITH (fastupdate = off)`,
  ];
}

/** One row to write: id, content, hash, metadata JSON, embedding. */
type Row = [string, string, string, string, readonly number[]];

/**
 * A PostgreSQL binary `vector[]` (array_recv over vector_recv): no text formatting or parsing of
 * floats on either side. `elementType` is the `vector` type's oid in this database.
 */
export function encodeVectorArray(
  vectors: readonly (readonly number[] | Float32Array)[],
  dimension: number,
  elementType: number,
): Buffer {
  const size = 4 + 4 * dimension;
  const buffer = Buffer.allocUnsafe(20 + vectors.length * (4 + size));
  buffer.writeInt32BE(1, 0);
  buffer.writeInt32BE(0, 4);
  buffer.writeUInt32BE(elementType, 8);
  buffer.writeInt32BE(vectors.length, 12);
  buffer.writeInt32BE(1, 16);
  const scratch = new Float32Array(dimension);
  let at = 20;
  for (const vector of vectors) {
    buffer.writeInt32BE(size, at);
    at = writeVector(buffer, at + 4, vector, dimension, scratch);
  }
  return buffer;
}

/**
 * One vector in pgvector's binary format (vector_recv: the dimension, a reserved word, then the floats
 * in network order), checked first: a question's 1,536 numbers neither formatted as text here nor
 * parsed there.
 */
export function encodeVector(vector: readonly number[], dimension: number): Buffer {
  validateVector(vector, dimension);
  const buffer = Buffer.allocUnsafe(4 + 4 * dimension);
  writeVector(buffer, 0, vector, dimension, new Float32Array(dimension));
  return buffer;
}

/**
 * Writes one vector as vector_recv reads it at `at`, through `scratch` (one native copy into float32,
 * byte-swapped to network order); answers where the next value starts.
 */
function writeVector(
  buffer: Buffer,
  at: number,
  vector: ArrayLike<number>,
  dimension: number,
  scratch: Float32Array,
): number {
  buffer.writeInt16BE(dimension, at);
  buffer.writeInt16BE(0, at + 2);
  scratch.set(vector);
  const bytes = Buffer.from(scratch.buffer, scratch.byteOffset, scratch.byteLength);
  if (ENDIANNESS === 'LE') bytes.swap32();
  bytes.copy(buffer, at + 4);
  return at + 4 + 4 * dimension;
}

/** Top-level equality conditions as one JSON object: `metadata @> it` lets the GIN index narrow the rows. */
function containment(filter: MetadataFilter | undefined): Metadata | undefined {
  if (!filter) return undefined;
  const leaves: { field: string; value: JsonValue }[] = [];
  const collect = (node: MetadataFilter) => {
    if ('and' in node && Array.isArray(node.and)) node.and.forEach(collect);
    else if ('field' in node && node.op === 'eq' && typeof node.field === 'string') {
      leaves.push({ field: node.field, value: node.value });
    }
  };
  collect(filter);
  if (leaves.length === 0) return undefined;
  const object: Metadata = {};
  for (const { field, value } of leaves) {
    const keys = field.split('.');
    let at: Metadata = object;
    keys.slice(0, -1).forEach((key) => {
      const next = at[key];
      at = (at[key] =
        typeof next === 'object' && next !== null && !Array.isArray(next) ? next : {}) as Metadata;
    });
    // Two different values for one field: nothing matches, and containment of either says so too.
    at[keys.at(-1)!] = value;
  }
  return object;
}

function distanceOf(indexDefs: string[]): Distance {
  const all = indexDefs.join(' ');
  // Full vectors (vector_*_ops) or the halfvec index expression (halfvec_*_ops).
  if (/(?:vector|halfvec)_l2_ops/.test(all)) return 'l2';
  if (/(?:vector|halfvec)_ip_ops/.test(all)) return 'inner_product';
  return 'cosine';
}

/** A table of an external database with a vector column (its first one, `embedding` preferred). */
interface ExternalTable {
  schema: string;
  table: string;
  column: string;
  typmod: number;
  defs: (string | null)[] | null;
}

/** undefined_table, insufficient_privilege. */
const GONE_OR_UNREADABLE = new Set(['42P01', '42501']);

function isTextType(type: string): boolean {
  return type === 'text' || type.startsWith('character varying') || type.startsWith('character(');
}

const CONTENT_COLUMNS = ['content', 'text', 'document', 'chunk', 'body', 'page_content'];
const METADATA_COLUMNS = ['metadata', 'cmetadata', 'meta', 'attributes'];

/**
 * pgvector behind `VectorStore`. Its own collections are tables in a dedicated schema (`kb`), created
 * lazily with the extension, so the app's migrations never need pgvector. With `external: true` it also
 * reads the database's existing tables with a `vector` column as read-only collections named `schema.table`.
 */
export class PgvectorStore implements VectorStore {
  readonly kind: string;
  private readonly schema: string;
  private readonly extension: string;
  private readonly batchSize: number;
  private readonly efSearch: number;
  private readonly buildMemoryMb: number;
  private readonly buildWorkers: number;
  private readonly vectorIndex: 'halfvec' | 'vector';
  private readonly sketchFrom: number;
  private readonly exactSearchUpTo: number;
  private readonly keywordRowsBound: number;
  private ready: Promise<void> | undefined;
  /** The store's own collections as last read from the registry, by name. */
  private readonly known = new Map<string, Target>();
  private iterativeScan: Promise<boolean> | undefined;
  private vectorArrayType: Promise<number> | undefined;

  constructor(
    private readonly sql: SqlClient,
    private readonly external: boolean,
    options: PgvectorStoreOptions = {},
  ) {
    this.schema = options.schema ?? 'kb';
    this.extension = options.extension ?? 'vector';
    this.batchSize = options.batchSize ?? 500;
    this.efSearch = options.efSearch ?? 150;
    this.buildMemoryMb = options.buildMemoryMb ?? 1024;
    this.buildWorkers = options.buildWorkers ?? Math.max(1, availableParallelism() - 1);
    this.vectorIndex = options.vectorIndex ?? 'halfvec';
    this.sketchFrom = options.sketchFrom ?? SKETCH_FROM_DIMENSION;
    this.exactSearchUpTo = options.exactSearchUpTo ?? 0;
    this.keywordRowsBound = options.keywordRowsBound ?? 5_000;
    if (!PRECISIONS.includes(this.vectorIndex)) throw new TypeError('vectorIndex is halfvec or vector');
    if (!(this.sketchFrom >= 1)) throw new TypeError('sketchFrom is a dimension (or Infinity)');
    if (!IDENTIFIER.test(this.schema)) throw new TypeError(`Invalid schema name ${this.schema}`);
    if (!Number.isInteger(this.buildWorkers) || this.buildWorkers < 0)
      throw new TypeError('buildWorkers is a whole number');
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1)
      throw new TypeError('batchSize is a positive integer');
    this.kind = external ? 'pgvector-external' : 'pgvector';
  }

  private get registry(): string {
    return `${quoteIdent(this.schema)}._collections`;
  }

  /** Creates the extension, the schema and the registry once; a failure is retried on the next call. */
  private ensureReady(): Promise<void> {
    this.ready ??= this.sql
      .transaction(async (query) => {
        await query('SELECT pg_advisory_xact_lock($1)', [INIT_LOCK]);
        const installed = await query('SELECT 1 FROM pg_extension WHERE extname = $1', [this.extension]);
        if (installed.length === 0) {
          try {
            await query(`CREATE EXTENSION IF NOT EXISTS ${quoteIdent(this.extension)}`);
          } catch (error) {
            throw mapExtensionError(error, this.extension);
          }
        }
        // Created only when missing: CREATE SCHEMA IF NOT EXISTS asks for the database's CREATE
        // privilege even then, which a role given its own schema need not have.
        const schema = await query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [this.schema]);
        if (schema.length === 0) await query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.schema)}`);
        await query(
          `CREATE TABLE IF NOT EXISTS ${this.registry} (name text PRIMARY KEY, dimension integer NOT NULL, distance text NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), vector_index text, text_language text)`,
        );
        // Columns registries made before lack (added only then: an ALTER locks the registry even when
        // it changes nothing). vector_index: what each collection's HNSW index holds, NULL the column
        // itself; text_language: its full-text language, NULL simple.
        const columns = await query<{ name: string }>(
          'SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped',
          [this.registry],
        );
        for (const column of ['vector_index', 'text_language']) {
          if (!columns.some((c) => c.name === column)) {
            await query(`ALTER TABLE ${this.registry} ADD COLUMN ${column} text`);
          }
        }
      })
      .catch((error: unknown) => {
        this.ready = undefined;
        throw error;
      });
    return this.ready;
  }

  /** pgvector 0.8 brought `hnsw.iterative_scan`; older servers get exact search for filtered queries. */
  private supportsIterativeScan(): Promise<boolean> {
    this.iterativeScan ??= this.sql
      .query<{ v: string }>("SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'")
      .then((rows) => {
        const [major = 0, minor = 0] = (rows[0]?.v ?? '0.0').split('.').map(Number);
        return major > 0 || minor >= 8;
      });
    return this.iterativeScan;
  }

  private checkOwnName(name: unknown): string {
    if (typeof name !== 'string' || !COLLECTION_NAME.test(name)) badName(name);
    return name;
  }

  private async resolve(name: unknown): Promise<Target> {
    if (typeof name !== 'string') badName(name);
    if (name.includes('.')) {
      if (!this.external) badName(name);
      return this.resolveExternal(name);
    }
    this.checkOwnName(name);
    const cached = this.known.get(name);
    if (cached) return cached;
    await this.ensureReady();
    const rows = await this.sql.query<{
      dimension: number;
      distance: Distance;
      vector_index: VectorIndexKind | null;
      text_language: string | null;
    }>(`SELECT dimension, distance, vector_index, text_language FROM ${this.registry} WHERE name = $1`, [
      name,
    ]);
    const row = rows[0];
    if (!row) notFound(name);
    const target: Target = {
      name,
      table: `${quoteIdent(this.schema)}.${quoteIdent(name)}`,
      dimension: row.dimension,
      distance: row.distance,
      writable: true,
      id: 't.id',
      content: 't.content',
      hash: 't.content_hash',
      metadata: 't.metadata',
      embedding: 't.embedding',
      tsv: 't.tsv',
      textConfig: textLanguageOf(row.text_language),
      // NULL: made before the registry said (the column itself).
      index: KNOWN_KINDS.find((kind) => kind === row.vector_index) ?? 'vector',
    };
    this.known.set(name, target);
    return target;
  }

  /**
   * Runs `fn` on a collection. Its description (dimension, distance) is remembered, so another process
   * may have dropped the collection, or made it again with another dimension, meanwhile: when the
   * database or the dimension check says so, the description is read again and `fn` retried once.
   */
  private async on<T>(name: string, fn: (target: Target) => Promise<T>): Promise<T> {
    const target = await this.resolve(name);
    try {
      return await fn(target);
    } catch (error) {
      if (!target.writable || !isStale(error)) throw error;
      this.known.delete(target.name);
      return fn(await this.resolve(name));
    }
  }

  /**
   * The external database's tables with a vector column, with their index definitions, read in one
   * statement: another client may drop a table at any time, and a catalog read per table would then fail.
   */
  private async externalTables(): Promise<ExternalTable[]> {
    const rows = await this.sql.query<ExternalTable>(
      `SELECT n.nspname AS schema, c.relname AS table, a.attname AS column, a.atttypmod AS typmod,
              ARRAY(SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i WHERE i.indrelid = c.oid) AS defs
         FROM pg_attribute a
         JOIN pg_class c ON c.oid = a.attrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_type ty ON ty.oid = a.atttypid
        WHERE ty.typname = 'vector' AND a.attnum > 0 AND NOT a.attisdropped
          AND c.relkind IN ('r', 'p', 'v', 'm')
          AND n.nspname NOT IN ('pg_catalog', 'information_schema', $1)
        ORDER BY n.nspname, c.relname, (a.attname = 'embedding') DESC, a.attnum`,
      [this.schema],
    );
    const seen = new Set<string>();
    return rows.filter((row) => {
      const key = `${row.schema}.${row.table}`;
      if (
        seen.has(key) ||
        !IDENTIFIER.test(row.schema) ||
        !IDENTIFIER.test(row.table) ||
        !IDENTIFIER.test(row.column)
      ) {
        return false;
      }
      seen.add(key);
      return true;
    });
  }

  /** An external table's dimension (its column's, or else its first vector's) and distance (its index's). */
  private async externalDescription(
    found: ExternalTable,
  ): Promise<{ dimension: number; distance: Distance }> {
    let dimension = found.typmod;
    if (dimension < 1) {
      const column = quoteIdent(found.column);
      const sample = await this.sql.query<{ d: number }>(
        `SELECT vector_dims(${column}) AS d FROM ${quoteIdent(found.schema)}.${quoteIdent(found.table)}
          WHERE ${column} IS NOT NULL LIMIT 1`,
      );
      dimension = sample[0]?.d ?? 0;
    }
    return {
      dimension,
      distance: distanceOf((found.defs ?? []).filter((def): def is string => Boolean(def))),
    };
  }

  private async resolveExternal(name: string): Promise<Target> {
    const [schema, table, ...rest] = name.split('.');
    if (
      !schema ||
      !table ||
      rest.length > 0 ||
      !IDENTIFIER.test(schema) ||
      !IDENTIFIER.test(table) ||
      schema === this.schema ||
      SYSTEM_SCHEMA.test(schema)
    ) {
      badName(name);
    }
    const found = (await this.externalTables()).find((row) => row.schema === schema && row.table === table);
    if (!found) notFound(name);
    const qualified = `${quoteIdent(schema)}.${quoteIdent(table)}`;
    const columns = await this.sql.query<{ name: string; type: string; pk: boolean }>(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
              COALESCE((SELECT i.indisprimary AND i.indnkeyatts = 1 FROM pg_index i
                         WHERE i.indrelid = a.attrelid AND i.indisprimary AND a.attnum = ANY(i.indkey)), false) AS pk
         FROM pg_attribute a WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [qualified],
    );
    const usable = columns.filter((column) => IDENTIFIER.test(column.name));
    const pick = (names: string[], test: (type: string) => boolean) =>
      names.map((n) => usable.find((column) => column.name === n && test(column.type))).find(Boolean);
    const pk = usable.find((column) => column.pk);
    const content = pick(CONTENT_COLUMNS, isTextType);
    const metadata = pick(METADATA_COLUMNS, (type) => type === 'jsonb');
    const id = pk ? `t.${quoteIdent(pk.name)}::text` : 't.ctid::text';
    const contentExpr = content ? `COALESCE(t.${quoteIdent(content.name)}::text, '')` : "''";
    const excluded = [pk?.name, content?.name, found.column].filter((n): n is string => Boolean(n));
    const metadataExpr = metadata
      ? `COALESCE(t.${quoteIdent(metadata.name)}, '{}'::jsonb)`
      : `(to_jsonb(t.*) - ARRAY[${excluded.map((n) => `'${n}'`).join(', ')}]::text[])`;
    const description = await this.externalDescription(found);
    return {
      name,
      table: qualified,
      ...description,
      writable: false,
      id,
      content: contentExpr,
      hash: `encode(sha256(convert_to(${contentExpr}, 'UTF8')), 'hex')`,
      metadata: metadataExpr,
      embedding: `t.${quoteIdent(found.column)}`,
      tsv: content ? `to_tsvector('simple', ${contentExpr})` : null,
      textConfig: 'simple',
      index: null,
    };
  }

  private writable(target: Target): Target {
    if (!target.writable) {
      throw new KnowledgeError(
        409,
        'collection_read_only',
        `${target.name} is an external table: the store only reads it`,
      );
    }
    return target;
  }

  /** Reads, in a READ ONLY transaction; `prelude`: settings sent with its BEGIN. */
  private read<T>(_target: Target, fn: (query: QueryFn) => Promise<T>, prelude?: string): Promise<T> {
    return this.sql.transaction(fn, { readOnly: true, ...(prelude ? { prelude } : {}) });
  }

  async createCollection(spec: CollectionSpec): Promise<CollectionSummary> {
    const name = this.checkOwnName(spec?.name);
    const distance = spec.distance ?? 'cosine';
    if (!DISTANCES.includes(distance)) {
      throw new KnowledgeError(422, 'invalid_distance', `distance is one of ${DISTANCES.join(', ')}`);
    }
    if (!Number.isInteger(spec.dimension) || spec.dimension < 1 || spec.dimension > MAX_DIMENSION) {
      throw new KnowledgeError(
        422,
        'invalid_dimension',
        `dimension is an integer from 1 to ${MAX_DIMENSION}`,
      );
    }
    const language = spec.textLanguage ?? 'simple';
    if (!fullTextLanguages.includes(language)) {
      throw new KnowledgeError(
        422,
        'invalid_text_language',
        `textLanguage is one of ${fullTextLanguages.join(', ')}`,
      );
    }
    await this.ensureReady();
    this.known.delete(name);
    const table = `${quoteIdent(this.schema)}.${quoteIdent(name)}`;
    await this.sql.transaction(async (query) => {
      await query('SELECT pg_advisory_xact_lock($1)', [INIT_LOCK]);
      const existing = await query(`SELECT 1 FROM ${this.registry} WHERE name = $1`, [name]);
      if (existing.length > 0)
        throw new KnowledgeError(409, 'collection_exists', `A collection named ${name} exists`);
      const kind = this.indexKindFor(spec.dimension, distance);
      const compression = (await this.lz4(query)) ? ' COMPRESSION lz4' : '';
      await query(
        `CREATE TABLE ${table} (
           id text PRIMARY KEY,
           content text${compression} NOT NULL,
           content_hash text NOT NULL,
           metadata jsonb${compression} NOT NULL DEFAULT '{}'::jsonb,
           embedding vector(${spec.dimension})${compression} NOT NULL,
           ${isSketch(kind) ? `sketch ${sketchType(kind)}${compression} NOT NULL,` : ''}
           tsv tsvector${compression} GENERATED ALWAYS AS (to_tsvector('${language}', content)) STORED
         )`,
      );
      // Every value stays in the row (MAIN: compressed first, out of line only when the row would not
      // fit a page). With the default (EXTENDED), a row wider than 2 kB has its EXTENDED values moved to
      // the TOAST table before any MAIN one is even compressed: a 1,536-d vector kept only the vector
      // in the row, each chunk's content, metadata, sketch, full text, id and hash a TOAST row of its
      // own, written with its own index entry and read back through it by every filter and answer.
      const columns = [
        'id',
        'content',
        'content_hash',
        'metadata',
        'embedding',
        'tsv',
        ...(isSketch(kind) ? ['sketch'] : []),
      ];
      await query(
        `ALTER TABLE ${table} ${columns.map((c) => `ALTER COLUMN ${c} SET STORAGE MAIN`).join(', ')}`,
      );
      const statements = indexStatements(name, table, distance, kind, spec.dimension, !spec.deferVectorIndex);
      for (const statement of statements) await query(statement);
      await query(
        `INSERT INTO ${this.registry} (name, dimension, distance, vector_index, text_language)
         VALUES ($1, $2, $3, $4, $5)`,
        [name, spec.dimension, distance, kind, language],
      );
    });
    return { name, dimension: spec.dimension, distance, writable: true };
  }

  /**
   * Whether the server compresses with lz4 (PostgreSQL 14 and later built with it; PGlite is not). A row
   * wider than 2 kB (every row of a 512-d or wider embedding) has its widest values compressed, with pglz by
   * default, several times slower than lz4. Writing 60,000 chunks of 1,536-d (`bench/knowledge/write-lab.ts`,
   * six runs each) took the server 8.3 s of CPU with pglz, 6.3 s with lz4 (medians); rewriting
   * 100,000 stored vectors, 5.8 s and 2.7 s.
   */
  private async lz4(query: QueryFn): Promise<boolean> {
    const [row] = await query<{ lz4: boolean }>(
      "SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'",
    );
    return row?.lz4 === true;
  }

  /**
   * The vector index a new collection of this dimension gets: a sketch of wide embeddings, else the
   * store's precision where pgvector takes it.
   */
  private indexKindFor(dimension: number, distance: Distance): VectorIndexKind {
    // A sketch is narrower than what it sketches; cosine, the angle, is what sign bits keep.
    if (dimension >= this.sketchFrom && dimension > SKETCH_SIZE) {
      return distance === 'cosine' ? 'sketch_bit' : `sketch_${this.vectorIndex}`;
    }
    if (dimension > HALFVEC_INDEX_MAX_DIMENSION) return 'none';
    return dimension > VECTOR_INDEX_MAX_DIMENSION ? 'halfvec' : this.vectorIndex;
  }

  async dropCollection(name: string): Promise<void> {
    if (typeof name === 'string') this.known.delete(name);
    const target = this.writable(await this.resolve(name));
    this.known.delete(target.name);
    await this.sql.transaction(async (query) => {
      await query(`DROP TABLE IF EXISTS ${target.table}`);
      await query(`DELETE FROM ${this.registry} WHERE name = $1`, [target.name]);
    });
  }

  async listCollections(): Promise<CollectionSummary[]> {
    await this.ensureReady();
    const own = await this.sql.query<{ name: string; dimension: number; distance: Distance }>(
      `SELECT name, dimension, distance FROM ${this.registry} ORDER BY name`,
    );
    const result: CollectionSummary[] = own.map((row) => ({ ...row, writable: true }));
    if (this.external) {
      for (const row of await this.externalTables()) {
        // A table dropped since the listing, or one this role may not read, is not a collection.
        const description = await this.externalDescription(row).catch((error: unknown) => {
          if (GONE_OR_UNREADABLE.has((error as { code?: string }).code ?? '')) return null;
          throw error;
        });
        if (description) result.push({ name: `${row.schema}.${row.table}`, ...description, writable: false });
      }
    }
    return result;
  }

  collectionInfo(name: string): Promise<CollectionInfo> {
    return this.on(name, (target) => this.info(target));
  }

  private info(target: Target): Promise<CollectionInfo> {
    return this.read(target, async (query) => {
      const [count] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${target.table} AS t`);
      // Keys seen in the first 10,000 rows: cheap on large collections, complete on small ones.
      const keys = await query<{ key: string }>(
        `SELECT DISTINCT k AS key FROM (SELECT ${target.metadata} AS m FROM ${target.table} AS t LIMIT 10000) s,
                LATERAL jsonb_object_keys(CASE WHEN jsonb_typeof(s.m) = 'object' THEN s.m ELSE '{}'::jsonb END) AS k
          ORDER BY 1`,
      );
      return {
        name: target.name,
        dimension: target.dimension,
        distance: target.distance,
        writable: target.writable,
        count: count?.n ?? 0,
        metadataKeys: keys.map((row) => row.key),
      };
    });
  }

  async preview(name: string, options: PreviewOptions = {}): Promise<StoredChunk[]> {
    const { limit, offset } = checkPreviewPage(options);
    const rows = await this.on(name, (target) =>
      this.read(target, (query) =>
        query<ChunkRow>(
          `SELECT ${this.columns(target)} FROM ${target.table} AS t ORDER BY 1 LIMIT $1 OFFSET $2`,
          [limit, offset],
        ),
      ),
    );
    return rows.map(toChunk);
  }

  private columns(target: Target): string {
    return `${target.id} AS id, ${target.content} AS content, ${target.hash} AS content_hash, ${target.metadata} AS metadata`;
  }

  /** Checks chunks and keeps the last of each id (one statement may not touch a row twice). */
  private rows(target: Target, chunks: readonly ChunkInput[]): Row[] {
    if (!Array.isArray(chunks))
      throw new KnowledgeError(422, 'invalid_chunk', 'upsert takes an array of chunks');
    const byId = new Map<string, Row>();
    chunks.forEach((chunk, index) => {
      const where = `chunk ${index}`;
      if (typeof chunk?.id !== 'string' || chunk.id.length === 0 || chunk.id.length > 512) {
        throw new KnowledgeError(422, 'invalid_chunk', `${where}: id is a string of 1 to 512 characters`);
      }
      if (typeof chunk.content !== 'string' || chunk.content.includes('\u0000')) {
        throw new KnowledgeError(
          422,
          'invalid_chunk',
          `${where}: content is a string without NUL characters`,
        );
      }
      const metadata = chunk.metadata ?? {};
      if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
        throw new KnowledgeError(422, 'invalid_chunk', `${where}: metadata is a JSON object`);
      }
      validateVector(chunk.embedding, target.dimension);
      byId.delete(chunk.id);
      byId.set(chunk.id, [
        chunk.id,
        chunk.content,
        contentHash(chunk.content),
        JSON.stringify(metadata),
        chunk.embedding,
      ]);
    });
    return [...byId.values()];
  }

  /** The oid of `vector` (for binary arrays of it), read once. */
  private vectorType(query: QueryFn): Promise<number> {
    this.vectorArrayType ??= query<{ oid: number }>(
      "SELECT t.oid::int AS oid FROM pg_type t JOIN pg_extension e ON t.typnamespace = e.extnamespace WHERE e.extname = $1 AND t.typname = 'vector'",
      [this.extension],
    ).then((rows) => rows[0]?.oid ?? 0);
    return this.vectorArrayType;
  }

  /**
   * `INSERT … SELECT FROM unnest(…) ON CONFLICT (id) DO UPDATE`, `batchSize` rows a statement: five
   * array parameters whatever the size. On node-postgres the vectors travel as one binary vector[].
   */
  private async insert(query: QueryFn, target: Target, rows: Row[]): Promise<void> {
    const binary = this.sql.binaryParameters === true;
    const oid = binary ? await this.vectorType(query) : 0;
    const arrayType = binary && oid > 0 ? 'vector[]' : 'text[]';
    const kind = target.index;
    const sketched = isSketch(kind);
    // A binary sketch goes as hexadecimal text (256 bytes of bits in 513 characters).
    const sketchArray = kind === 'sketch_bit' ? 'text[]' : arrayType;
    const statement = `INSERT INTO ${target.table} (id, content, content_hash, metadata, embedding${sketched ? ', sketch' : ''})
      SELECT u.id, u.content, u.hash, u.meta::jsonb, u.emb::vector${sketched ? `, u.sketch::${sketchType(kind)}` : ''}
        FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::${arrayType}${sketched ? `, $6::${sketchArray}` : ''})
          AS u(id, content, hash, meta, emb${sketched ? ', sketch' : ''})
      ON CONFLICT (id) DO UPDATE SET content = excluded.content, content_hash = excluded.content_hash,
        metadata = excluded.metadata, embedding = excluded.embedding${sketched ? ', sketch = excluded.sketch' : ''}`;
    const encode = (vectors: readonly (readonly number[] | Float32Array)[], dimension: number) =>
      binary && oid > 0
        ? encodeVectorArray(vectors, dimension, oid)
        : vectors.map((vector) => `[${vector.join(',')}]`);
    const sketches = (vectors: readonly (readonly number[])[]) =>
      kind === 'sketch_bit'
        ? vectors.map(bitSketchOf(target.dimension))
        : encode(vectors.map(sketchOf(target.dimension, SKETCH_SIZE)), SKETCH_SIZE);
    for (let start = 0; start < rows.length; start += this.batchSize) {
      const batch = rows.slice(start, start + this.batchSize);
      const embeddings = batch.map((row) => row[4]);
      await query(statement, [
        batch.map((row) => row[0]),
        batch.map((row) => row[1]),
        batch.map((row) => row[2]),
        batch.map((row) => row[3]),
        encode(embeddings, target.dimension),
        ...(sketched ? [sketches(embeddings)] : []),
      ]);
    }
  }

  /**
   * Inserts or replaces chunks, all batches in one transaction. With `{ bulk: true }` and a collection
   * holding at most twice as many rows as `chunks`, it goes through bulkLoad (one index build at the end).
   */
  upsert(name: string, chunks: readonly ChunkInput[], options: UpsertOptions = {}): Promise<number> {
    return this.on(name, (target) => this.upsertInto(this.writable(target), chunks, options));
  }

  private async upsertInto(target: Target, chunks: readonly ChunkInput[], options: UpsertOptions) {
    const rows = this.rows(target, chunks);
    if (options.bulk && target.writable && rows.length > 0) {
      const existing = await this.countRows(
        (text, values) => this.sql.query(text, values),
        target,
        2 * rows.length,
      );
      if (existing <= 2 * rows.length) return this.load(target, [rows]);
    }
    // One statement is atomic by itself: no transaction around it (two round trips fewer a document).
    if (rows.length <= this.batchSize) {
      await this.insert((text, values) => this.sql.query(text, values), target, rows);
    } else {
      await this.sql.transaction((query) => this.insert(query, target, rows));
    }
    return rows.length;
  }

  /**
   * A bulk load into an empty or small collection, in one transaction: the collection's indexes are
   * dropped, the batches inserted (upsert semantics), then the indexes built once, the HNSW one with
   * maintenance_work_mem raised (up to `buildMemoryMb`) and PostgreSQL's parallel workers (none when
   * the collection stays small enough to be searched exactly, see `exactSearchUpTo`). The
   * collection is locked for the duration. Answers how many chunks were written.
   */
  async bulkLoad(
    name: string,
    batches: Iterable<readonly ChunkInput[]> | AsyncIterable<readonly ChunkInput[]>,
  ): Promise<number> {
    const target = this.writable(await this.resolve(name));
    const check = (batch: readonly ChunkInput[]) => this.rows(target, batch);
    async function* rows() {
      for await (const batch of batches) yield check(batch);
    }
    return this.load(target, rows());
  }

  private load(target: Target, batches: Iterable<Row[]> | AsyncIterable<Row[]>): Promise<number> {
    const name = target.name;
    const index = (suffix: string) => `${quoteIdent(this.schema)}.${quoteIdent(`_${name}_${suffix}`)}`;
    return this.sql.transaction(async (query) => {
      for (const suffix of ['hnsw', 'tsv', 'metadata']) await query(`DROP INDEX IF EXISTS ${index(suffix)}`);
      let written = 0;
      for await (const rows of batches) {
        await this.insert(query, target, rows);
        written += rows.length;
      }
      const total = await this.countRows(query, target);
      const vector = total > this.exactSearchUpTo && target.index !== 'none';
      if (vector) await this.raiseBuildMemory(query, target, total);
      const statements = indexStatements(
        name,
        target.table,
        target.distance,
        target.index ?? 'vector',
        target.dimension,
        vector,
      );
      await this.withBuildWorkers(query, target, statements);
      await query(`ANALYZE ${target.table}`);
      return written;
    });
  }

  /**
   * Runs index builds with `buildWorkers` parallel maintenance workers (the server's
   * max_parallel_maintenance_workers, 2 by default, caps them; 0 builds alone). Asked for: the planner
   * sizes a build by the table's heap, which holds little (the vectors live in TOAST), and would build
   * alone. The build's own process works beside its workers, so a worker per core oversubscribes: HNSW
   * (m 16) over 100,000 vectors of 1,536-d on 2 cores took 96.2 s alone, 65.8 s with 2 workers and
   * 55.9 s with 1. The option is reset in the same transaction: no one else ever sees it.
   */
  private async withBuildWorkers(query: QueryFn, target: Target, statements: readonly string[]) {
    await query(`ALTER TABLE ${target.table} SET (parallel_workers = ${this.buildWorkers})`);
    for (const statement of statements) await query(statement);
    await query(`ALTER TABLE ${target.table} RESET (parallel_workers)`);
  }

  /**
   * The HNSW graph is built in memory when it fits (else on disk, several times slower): each row's
   * vector as the index holds it plus its links. The table's size says nothing of it (vectors are
   * stored compressed), so the rows are counted.
   */
  private async raiseBuildMemory(query: QueryFn, target: Target, rows: number): Promise<void> {
    const kind = target.index ?? 'vector';
    const numbers = isSketch(kind) ? SKETCH_SIZE : target.dimension;
    const vectorBytes =
      kind === 'sketch_bit'
        ? SKETCH_BITS / 8 + 8
        : (kind === 'none' || precisionOf(kind) === 'vector' ? 4 : 2) * numbers + 8;
    const bytes = rows * (vectorBytes + HNSW_ELEMENT_BYTES) * 1.2;
    const memory = Math.min(this.buildMemoryMb, Math.max(64, Math.ceil(bytes / 1048576)));
    await query("SELECT set_config('maintenance_work_mem', $1, true)", [`${memory}MB`]);
  }

  private indexName(name: string): string {
    return `${quoteIdent(this.schema)}.${quoteIdent(`_${name}_hnsw`)}`;
  }

  /** The collection's rows, or only whether they exceed `upTo` (counted up to upTo + 1: no full scan). */
  private async countRows(query: QueryFn, target: Target, upTo?: number): Promise<number> {
    const rows = upTo === undefined ? target.table : `(SELECT 1 FROM ${target.table} LIMIT ${upTo + 1}) s`;
    const [counted] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${rows}`);
    return counted?.n ?? 0;
  }

  async vectorSearchReady(name: string): Promise<boolean> {
    const target = await this.resolve(name);
    // An index still being built is not visible to other sessions until its transaction commits.
    const [found] = await this.sql.query<{ oid: string | null }>('SELECT to_regclass($1)::text AS oid', [
      this.indexName(target.name),
    ]);
    if (found?.oid) return true;
    const exactOnly = target.index === 'none';
    if (this.exactSearchUpTo <= 0 && !exactOnly) return false;
    // Called for every collection shown: bounded, it reads at most the rows the answer needs.
    const upTo = exactOnly ? 0 : this.exactSearchUpTo;
    const rows = await this.countRows((text, values) => this.sql.query(text, values), target, upTo);
    return rows > 0 && (exactOnly || rows <= this.exactSearchUpTo);
  }

  /**
   * Builds the HNSW index of a collection made with `deferVectorIndex` (writes to it wait meanwhile;
   * searches go on, exact), unless it is small enough to stay exact (`exactSearchUpTo`): then the first
   * ingestion that takes it past that builds it. A collection too wide for any index (`none`) has none
   * to build. Two callers at once build it once: the second finds it made.
   */
  async buildVectorIndex(name: string): Promise<boolean> {
    const target = this.writable(await this.resolve(name));
    const kind = target.index ?? 'vector';
    if (kind === 'none') return false;
    const index = this.indexName(name);
    return this.sql.transaction(async (query) => {
      await query('SELECT pg_advisory_xact_lock(hashtext($1))', [`atelier-kb-index:${index}`]);
      const [found] = await query<{ oid: string | null }>('SELECT to_regclass($1)::text AS oid', [index]);
      if (found?.oid) return false;
      const rows = await this.countRows(query, target);
      if (rows <= this.exactSearchUpTo) return false;
      await this.raiseBuildMemory(query, target, rows);
      await this.withBuildWorkers(query, target, [
        vectorIndexStatement(name, target.table, target.distance, kind, target.dimension),
      ]);
      // The words of the chunks just ingested wait in the full-text index's pending list, which every
      // full-text search would read whole until a vacuum merges it: merged now, with the graph.
      await query('SELECT gin_clean_pending_list(to_regclass($1))', [
        `${quoteIdent(this.schema)}.${quoteIdent(`_${name}_tsv`)}`,
      ]);
      await query(`ANALYZE ${target.table}`);
      return true;
    });
  }

  deleteByIds(name: string, ids: readonly string[]): Promise<number> {
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
      throw new KnowledgeError(422, 'invalid_ids', 'ids is an array of strings');
    }
    return this.on(name, async (found) => {
      const target = this.writable(found);
      const [row] = await this.sql.query<{ n: number }>(
        `WITH d AS (DELETE FROM ${target.table} WHERE id = ANY($1::text[]) RETURNING 1) SELECT count(*)::int AS n FROM d`,
        [ids],
      );
      return row?.n ?? 0;
    });
  }

  deleteWhere(name: string, filter: MetadataFilter): Promise<number> {
    return this.on(name, async (found) => {
      const target = this.writable(found);
      const params = new Params();
      const [row] = await this.sql.query<{ n: number }>(
        `WITH d AS (DELETE FROM ${target.table} AS t WHERE ${matching(target, filter, params)} RETURNING 1)
         SELECT count(*)::int AS n FROM d`,
        params.values,
      );
      return row?.n ?? 0;
    });
  }

  updateMetadata(name: string, filter: MetadataFilter, change: MetadataChange): Promise<number> {
    return this.on(name, async (found) => {
      const target = this.writable(found);
      const params = new Params();
      const set = params.add(JSON.stringify(change.set));
      const unset = `ARRAY(SELECT jsonb_array_elements_text(${params.add(JSON.stringify(change.unset))}::jsonb))`;
      const [row] = await this.sql.query<{ n: number }>(
        // A chunk already as asked is left as it is: rewriting its row would index it again for nothing.
        `WITH u AS (UPDATE ${target.table} AS t SET metadata = (t.metadata - ${unset}) || ${set}::jsonb
           WHERE ${matching(target, filter, params)} AND NOT (t.metadata @> ${set}::jsonb AND NOT t.metadata ?| ${unset})
           RETURNING 1) SELECT count(*)::int AS n FROM u`,
        params.values,
      );
      return row?.n ?? 0;
    });
  }

  query(name: string, request: VectorQuery): Promise<ScoredChunk[]> {
    return this.on(name, (target) => this.search(target, request));
  }

  private async search(target: Target, request: VectorQuery): Promise<ScoredChunk[]> {
    const topK = checkTopK(request.topK);
    const params = new Params();
    // On node-postgres the question's vector travels in binary (a Buffer parameter is sent so).
    const vector = `${params.add(
      this.sql.binaryParameters
        ? encodeVector(request.vector, target.dimension)
        : checkVector(request.vector, target.dimension),
    )}::vector`;
    const where = request.filter ? compileFilter(request.filter, target.metadata, params) : 'true';
    // Only the store's own tables have the GIN index on metadata that makes this pay.
    const contains = target.writable ? containment(request.filter) : undefined;
    const narrow = contains
      ? ` AND ${target.metadata} @> ${params.add(JSON.stringify(contains))}::jsonb`
      : '';
    const { op, score } = OPERATORS[target.distance];
    // The full-precision distance scores (and, over a half-precision index, re-ranks) the candidates.
    const distance = `(${target.embedding} ${op} ${vector})`;
    const kind = target.index;
    const sketched = isSketch(kind);
    // The breadth of a search of the default width: a sketch's candidates are all re-ranked.
    const breadth = sketched ? Math.max(this.efSearch, SKETCH_CANDIDATES) : this.efSearch;
    const efSearch = Math.min(1000, Math.max(breadth, topK * 4));
    const limit = params.add(topK);
    // A half-precision index may swap near neighbours: twice as many candidates are re-ranked; a
    // sketch's nearest are only near: the whole breadth is.
    const candidates = sketched ? params.add(efSearch) : kind === 'halfvec' ? params.add(2 * topK) : limit;
    let indexed = distance;
    if (sketched) {
      // The question's sketch goes last: exact search, which has no use for it, sends the values before.
      const probe = sketchProbe(kind, target.distance, target.dimension);
      indexed = `(t.sketch ${probe.op} ${params.add(probe.literal(request.vector))}::${probe.type})`;
    } else if (kind === 'halfvec') {
      indexed = `(${indexedExpression('halfvec', target.dimension)} ${op} ${vector}::halfvec(${target.dimension}))`;
    }
    const exactValues = sketched ? params.values.slice(0, -1) : params.values;
    // `ORDER BY` the indexed expression lets the planner walk the HNSW index; `+ 0` hides the index:
    // exact search. The containment of the filter's equalities (when it has some) lets the GIN index
    // narrow rows.
    const statement = (exact: boolean) =>
      `SELECT *, current_setting('hnsw.ef_search', true) AS ef_search FROM (SELECT ${this.columns(target)},
            ${distance} AS distance FROM ${target.table} AS t
          WHERE ${target.embedding} IS NOT NULL AND ${where}${narrow}
          ORDER BY ${exact ? `${distance} + 0` : indexed} LIMIT ${candidates}) s
        ORDER BY distance, id LIMIT ${limit}`;
    // A search wider than the default breadth can tip the planner into scanning and sorting every row
    // (see `indexScanOnly`): it runs in a transaction of its own settings.
    const wide = efSearch > breadth;
    const scored = (rows: SearchRow[]) =>
      rows.map((row) => ({ ...toChunk(row), score: score(Number(row.distance)) }));
    if (!request.filter && !wide && this.sql.withSettings) {
      // The index scan's breadth as a setting of the connection's session: one round trip. The rows
      // say the breadth they were searched with; another (a shared session changed it) searches again.
      const rows = await this.sql.withSettings<SearchRow>(
        { 'hnsw.ef_search': String(efSearch) },
        statement(false),
        params.values,
        (found) => found.length === 0 || Number(found[0]!.ef_search) === efSearch,
      );
      if (rows) return scored(rows);
    }
    const iterative = request.filter ? await this.supportsIterativeScan() : false;
    // The index scan's breadth goes with the BEGIN, in its round trip (a number of ours).
    const settings = `SELECT set_config('hnsw.ef_search', '${efSearch}', true)${
      iterative ? ", set_config('hnsw.iterative_scan', 'relaxed_order', true)" : ''
    }${!request.filter && wide && target.writable ? `, ${this.indexScanOnly(target)}` : ''}`;
    const rows = await this.read(
      target,
      async (query) => {
        if (request.filter && !iterative) return query<SearchRow>(statement(true), exactValues);
        if (contains && (await this.fewMatches(query, target, contains, topK))) {
          return query<SearchRow>(statement(true), exactValues);
        }
        // With a filter, the planner's row estimate would otherwise make it prefer a scan of the
        // matching rows and a sort: the iterative index scan is the plan (exact search follows when it
        // finds too few).
        if (iterative) {
          await query(
            "SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)",
          );
        }
        const approximate = await query<SearchRow>(statement(false), params.values);
        // A selective filter can exhaust the index scan (hnsw.max_scan_tuples) before topK rows match:
        // then exact search over the matching rows answers; it returns fewer only when fewer match.
        if (approximate.length >= topK || !request.filter) return approximate;
        await query(
          "SELECT set_config('enable_seqscan', 'on', true), set_config('enable_bitmapscan', 'on', true)",
        );
        return query<SearchRow>(statement(true), exactValues);
      },
      settings,
    );
    return scored(rows);
  }

  /**
   * For one transaction, sequential scans off when the collection's HNSW index exists (a session setting
   * would reach the app's queries on the pool). The planner's estimate leaves out reading each vector
   * from TOAST: at 100,000 chunks, a top-80 search (ef_search 320) scanned and sorted every row in
   * 450 ms, where the index answers in 16 ms. Without the index, exact search is the only plan anyway.
   */
  private indexScanOnly(target: Target): string {
    const index = this.indexName(target.name).replaceAll("'", "''");
    return `set_config('enable_seqscan', CASE WHEN to_regclass('${index}') IS NULL THEN 'on' ELSE 'off' END, true)`;
  }

  /**
   * Whether the filter's equalities leave few rows (counted through the GIN index, up to a bound): then
   * exact search over them is cheap and exact, where the HNSW scan would have to walk far to find them.
   */
  private async fewMatches(
    query: QueryFn,
    target: Target,
    contains: Metadata,
    topK: number,
  ): Promise<boolean> {
    const bound = Math.max(EXACT_FILTER_ROWS, 20 * topK);
    const [row] = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${target.table} AS t WHERE ${target.metadata} @> $1::jsonb LIMIT ${bound + 1}) s`,
      [JSON.stringify(contains)],
    );
    return (row?.n ?? 0) <= bound;
  }

  textSearch(name: string, request: TextQuery): Promise<ScoredChunk[]> {
    return this.on(name, (target) => this.searchText(target, request));
  }

  private async searchText(target: Target, request: TextQuery): Promise<ScoredChunk[]> {
    const topK = checkTopK(request.topK);
    if (typeof request.query !== 'string' || request.query.trim() === '') {
      throw new KnowledgeError(422, 'invalid_query', 'query is a non-empty string');
    }
    if (!target.tsv) {
      throw new KnowledgeError(422, 'no_text_column', `${target.name} has no text column to search`);
    }
    const { phrases, excluded, keywords } = parseTextQuery(request.query);
    if (phrases.length === 0 && keywords.length === 0) return [];
    const config = target.textConfig;
    const params = new Params();
    const any =
      keywords.length > 0 ? this.keywordQuery(target, params.add(keywords.join(' ')), params) : null;
    // Every phrase required (else any keyword), no excluded word; the keywords rank what the phrases find.
    const match = [
      ...(phrases.length > 0
        ? phrases.map((phrase) => `phraseto_tsquery('${config}', ${params.add(phrase)}::text)`)
        : [any]),
      ...excluded.map((word) => `!!plainto_tsquery('${config}', ${params.add(word)}::text)`),
    ].join(' && ');
    const rank = phrases.length > 0 && any ? `m.q || ${any}` : 'm.q';
    const where = request.filter ? compileFilter(request.filter, target.metadata, params) : 'true';
    const rows = await this.read(target, (query) =>
      query<ChunkRow>(
        `SELECT ${this.columns(target)}, ts_rank_cd(${target.tsv}, r.q) AS score
           FROM ${target.table} AS t, (SELECT ${match} AS q) AS m, LATERAL (SELECT ${rank} AS q) AS r
          WHERE ${target.tsv} @@ m.q AND ${where}
          ORDER BY score DESC, id LIMIT ${params.add(topK)}`,
        params.values,
      ),
    );
    return rows.map((row) => ({ ...toChunk(row), score: Number(row.score) }));
  }

  /**
   * The tsquery of a question's keywords (`words`, a parameter): any of them, so that a chunk holding
   * more of them ranks higher (`ts_rank_cd`) and one holding a single rare one is still found. On the
   * store's own collections, keywords that the statistics say more than `keywordRowsBound` chunks hold
   * are left out; when all are, the chunks holding every keyword answer instead.
   */
  private keywordQuery(target: Target, words: string, params: Params): string {
    const config = target.textConfig;
    const lexemes = `(SELECT DISTINCT lexeme FROM unnest(to_tsvector('${config}', ${words}::text)))`;
    // A lexeme as tsquery input: quoted, its quotes and backslashes doubled.
    const quoted = `'''' || replace(replace(w.lexeme, '\\', '\\\\'), '''', '''''') || ''''`;
    if (!target.writable) return `(SELECT string_agg(${quoted}, ' | ')::tsquery FROM ${lexemes} AS w)`;
    const stats = `SELECT e.elem, e.freq FROM pg_stats AS st,
          unnest(st.most_common_elems::text::text[], st.most_common_elem_freqs) AS e(elem, freq)
        WHERE st.schemaname = ${params.add(this.schema)} AND st.tablename = ${params.add(target.name)}
          AND st.attname = 'tsv' AND e.elem IS NOT NULL`;
    const rows = `SELECT reltuples FROM pg_class WHERE oid = to_regclass(${params.add(target.table)})`;
    const bound = params.add(this.keywordRowsBound);
    return `(SELECT CASE WHEN bool_or(k.keep) THEN (string_agg(k.quoted, ' | ') FILTER (WHERE k.keep))::tsquery
                    ELSE plainto_tsquery('${config}', ${words}::text) END
               FROM (SELECT ${quoted} AS quoted, COALESCE(s.freq, 0) * GREATEST(c.reltuples, 0) <= ${bound} AS keep
                       FROM ${lexemes} AS w CROSS JOIN (${rows}) AS c
                       LEFT JOIN (${stats}) AS s ON s.elem = w.lexeme) AS k)`;
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}

/** The built-in store in Atelier's own database (a drizzle `Db` on PostgreSQL or PGlite). */
export function createPgvectorStore(source: SqlSource, options?: PgvectorStoreOptions): PgvectorStore {
  return new PgvectorStore(toSqlClient(source), false, options);
}

/**
 * A store over an external PostgreSQL with pgvector: its tables with a `vector` column are read-only
 * collections named `schema.table`; collections it creates live in its own schema there. `close()` ends its pool.
 */
export function createExternalPgvectorStore(
  url: string,
  options?: PgvectorStoreOptions & { poolSize?: number },
): PgvectorStore {
  const pool = new pg.Pool({ connectionString: url, max: options?.poolSize ?? 5 });
  pool.on('error', () => undefined);
  return new PgvectorStore(poolClient(pool, true), true, options);
}
