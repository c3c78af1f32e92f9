import pg from 'pg';
import { poolClient, toSqlClient, type QueryFn, type SqlClient, type SqlSource } from './sql-client';
import {
  DISTANCES,
  KnowledgeError,
  Params,
  checkTopK,
  checkVector,
  compileFilter,
  contentHash,
  type ChunkInput,
  type CollectionInfo,
  type CollectionSpec,
  type CollectionSummary,
  type Distance,
  type Metadata,
  type MetadataFilter,
  type PreviewOptions,
  type ScoredChunk,
  type StoredChunk,
  type TextQuery,
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
}

/** Collection names of the built-in store: lower-case identifiers, so they are their own table names. */
const COLLECTION_NAME = /^[a-z][a-z0-9_]{0,47}$/;
/** Parts of an external `schema.table` name. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;
/** System schemas never hold collections. */
const SYSTEM_SCHEMA = /^(pg_|information_schema$)/i;
/** HNSW indexes `vector` columns up to 2,000 dimensions. */
export const MAX_DIMENSION = 2000;
const INIT_LOCK = 727_501_417;
const PREVIEW_MAX = 100;

const OPERATORS: Record<Distance, { op: string; opclass: string; score: (d: number) => number }> = {
  cosine: { op: '<=>', opclass: 'vector_cosine_ops', score: (d) => 1 - d },
  l2: { op: '<->', opclass: 'vector_l2_ops', score: (d) => -d },
  // `<#>` is the negative inner product.
  inner_product: { op: '<#>', opclass: 'vector_ip_ops', score: (d) => -d },
};

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
}

interface ChunkRow {
  id: string;
  content: string;
  content_hash: string;
  metadata: Metadata | string | null;
  score?: number | string;
  distance?: number | string;
}

function toChunk(row: ChunkRow): StoredChunk {
  const metadata =
    typeof row.metadata === 'string' ? (JSON.parse(row.metadata) as Metadata) : (row.metadata ?? {});
  return { id: row.id, content: row.content, contentHash: row.content_hash, metadata };
}

function distanceOf(indexDefs: string[]): Distance {
  const all = indexDefs.join(' ');
  if (all.includes('vector_l2_ops')) return 'l2';
  if (all.includes('vector_ip_ops')) return 'inner_product';
  return 'cosine';
}

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
  private ready: Promise<void> | undefined;
  private iterativeScan: Promise<boolean> | undefined;

  constructor(
    private readonly sql: SqlClient,
    private readonly external: boolean,
    options: PgvectorStoreOptions = {},
  ) {
    this.schema = options.schema ?? 'kb';
    this.extension = options.extension ?? 'vector';
    this.batchSize = options.batchSize ?? 500;
    if (!IDENTIFIER.test(this.schema)) throw new TypeError(`Invalid schema name ${this.schema}`);
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
        await query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.schema)}`);
        await query(
          `CREATE TABLE IF NOT EXISTS ${this.registry} (name text PRIMARY KEY, dimension integer NOT NULL, distance text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
        );
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
    await this.ensureReady();
    const rows = await this.sql.query<{ dimension: number; distance: Distance }>(
      `SELECT dimension, distance FROM ${this.registry} WHERE name = $1`,
      [name],
    );
    const row = rows[0];
    if (!row) notFound(name);
    return {
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
    };
  }

  private async externalTables(): Promise<
    { schema: string; table: string; column: string; typmod: number }[]
  > {
    const rows = await this.sql.query<{ schema: string; table: string; column: string; typmod: number }>(
      `SELECT n.nspname AS schema, c.relname AS table, a.attname AS column, a.atttypmod AS typmod
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

  private async externalDescription(
    schema: string,
    table: string,
    column: string,
    typmod: number,
  ): Promise<{ dimension: number; distance: Distance }> {
    const qualified = `${quoteIdent(schema)}.${quoteIdent(table)}`;
    const defs = await this.sql.query<{ def: string }>(
      'SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = $1::regclass',
      [qualified],
    );
    let dimension = typmod;
    if (dimension < 1) {
      const sample = await this.sql.query<{ d: number }>(
        `SELECT vector_dims(${quoteIdent(column)}) AS d FROM ${qualified} WHERE ${quoteIdent(column)} IS NOT NULL LIMIT 1`,
      );
      dimension = sample[0]?.d ?? 0;
    }
    return { dimension, distance: distanceOf(defs.map((row) => row.def)) };
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
    const description = await this.externalDescription(schema, table, found.column, found.typmod);
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

  /** Reads: external tables inside a READ ONLY transaction. */
  private read<T>(target: Target, fn: (query: QueryFn) => Promise<T>): Promise<T> {
    return this.sql.transaction(async (query) => {
      if (!target.writable) await query('SET TRANSACTION READ ONLY');
      return fn(query);
    });
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
    await this.ensureReady();
    const table = `${quoteIdent(this.schema)}.${quoteIdent(name)}`;
    await this.sql.transaction(async (query) => {
      await query('SELECT pg_advisory_xact_lock($1)', [INIT_LOCK]);
      const existing = await query(`SELECT 1 FROM ${this.registry} WHERE name = $1`, [name]);
      if (existing.length > 0)
        throw new KnowledgeError(409, 'collection_exists', `A collection named ${name} exists`);
      await query(
        `CREATE TABLE ${table} (
           id text PRIMARY KEY,
           content text NOT NULL,
           content_hash text NOT NULL,
           metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
           embedding vector(${spec.dimension}) NOT NULL,
           tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', content)) STORED
         )`,
      );
      // Index names start with `_`, which collection names cannot, so they never collide with a table.
      await query(
        `CREATE INDEX ${quoteIdent(`_${name}_hnsw`)} ON ${table} USING hnsw (embedding ${OPERATORS[distance].opclass})`,
      );
      await query(`CREATE INDEX ${quoteIdent(`_${name}_tsv`)} ON ${table} USING gin (tsv)`);
      await query(
        `CREATE INDEX ${quoteIdent(`_${name}_metadata`)} ON ${table} USING gin (metadata jsonb_path_ops)`,
      );
      await query(`INSERT INTO ${this.registry} (name, dimension, distance) VALUES ($1, $2, $3)`, [
        name,
        spec.dimension,
        distance,
      ]);
    });
    return { name, dimension: spec.dimension, distance, writable: true };
  }

  async dropCollection(name: string): Promise<void> {
    const target = this.writable(await this.resolve(name));
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
        const description = await this.externalDescription(row.schema, row.table, row.column, row.typmod);
        result.push({ name: `${row.schema}.${row.table}`, ...description, writable: false });
      }
    }
    return result;
  }

  async collectionInfo(name: string): Promise<CollectionInfo> {
    const target = await this.resolve(name);
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
    const target = await this.resolve(name);
    const rows = await this.read(target, (query) =>
      query<ChunkRow>(
        `SELECT ${this.columns(target)} FROM ${target.table} AS t ORDER BY 1 LIMIT $1 OFFSET $2`,
        [limit, offset],
      ),
    );
    return rows.map(toChunk);
  }

  private columns(target: Target): string {
    return `${target.id} AS id, ${target.content} AS content, ${target.hash} AS content_hash, ${target.metadata} AS metadata`;
  }

  async upsert(name: string, chunks: readonly ChunkInput[]): Promise<number> {
    const target = this.writable(await this.resolve(name));
    if (!Array.isArray(chunks))
      throw new KnowledgeError(422, 'invalid_chunk', 'upsert takes an array of chunks');
    // Later chunks with the same id replace earlier ones (one statement may not touch a row twice).
    const byId = new Map<string, [string, string, string, string, string]>();
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
      const vector = checkVector(chunk.embedding, target.dimension);
      byId.delete(chunk.id);
      byId.set(chunk.id, [
        chunk.id,
        chunk.content,
        contentHash(chunk.content),
        JSON.stringify(metadata),
        vector,
      ]);
    });
    const rows = [...byId.values()];
    // Five array parameters per statement whatever the batch size: far from PostgreSQL's 65,535 limit.
    const statement = `INSERT INTO ${target.table} (id, content, content_hash, metadata, embedding)
      SELECT u.id, u.content, u.hash, u.meta::jsonb, u.emb::vector
        FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS u(id, content, hash, meta, emb)
      ON CONFLICT (id) DO UPDATE SET content = excluded.content, content_hash = excluded.content_hash,
        metadata = excluded.metadata, embedding = excluded.embedding`;
    await this.sql.transaction(async (query) => {
      for (let start = 0; start < rows.length; start += this.batchSize) {
        const batch = rows.slice(start, start + this.batchSize);
        await query(
          statement,
          [0, 1, 2, 3, 4].map((column) => batch.map((row) => row[column])),
        );
      }
    });
    return rows.length;
  }

  async deleteByIds(name: string, ids: readonly string[]): Promise<number> {
    const target = this.writable(await this.resolve(name));
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
      throw new KnowledgeError(422, 'invalid_ids', 'ids is an array of strings');
    }
    const [row] = await this.sql.query<{ n: number }>(
      `WITH d AS (DELETE FROM ${target.table} WHERE id = ANY($1::text[]) RETURNING 1) SELECT count(*)::int AS n FROM d`,
      [ids],
    );
    return row?.n ?? 0;
  }

  async deleteWhere(name: string, filter: MetadataFilter): Promise<number> {
    const target = this.writable(await this.resolve(name));
    const params = new Params();
    const where = compileFilter(filter, target.metadata, params);
    const [row] = await this.sql.query<{ n: number }>(
      `WITH d AS (DELETE FROM ${target.table} AS t WHERE ${where} RETURNING 1) SELECT count(*)::int AS n FROM d`,
      params.values,
    );
    return row?.n ?? 0;
  }

  async query(name: string, request: VectorQuery): Promise<ScoredChunk[]> {
    const target = await this.resolve(name);
    const topK = checkTopK(request.topK);
    const params = new Params();
    const vector = `${params.add(checkVector(request.vector, target.dimension))}::vector`;
    const where = request.filter ? compileFilter(request.filter, target.metadata, params) : 'true';
    const { op, score } = OPERATORS[target.distance];
    const distance = `(${target.embedding} ${op} ${vector})`;
    const limit = params.add(topK);
    // `ORDER BY distance` lets the planner walk the HNSW index; `+ 0` hides the index: exact search.
    const statement = (exact: boolean) =>
      `SELECT * FROM (SELECT ${this.columns(target)}, ${distance} AS distance FROM ${target.table} AS t
          WHERE ${target.embedding} IS NOT NULL AND ${where} ORDER BY ${exact ? `${distance} + 0` : distance} LIMIT ${limit}) s
        ORDER BY distance, id`;
    const iterative = request.filter ? await this.supportsIterativeScan() : false;
    const rows = await this.read(target, async (query) => {
      await query("SELECT set_config('hnsw.ef_search', $1, true)", [
        String(Math.min(1000, Math.max(64, topK * 2))),
      ]);
      if (request.filter && !iterative) return query<ChunkRow>(statement(true), params.values);
      if (iterative) await query("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)");
      const approximate = await query<ChunkRow>(statement(false), params.values);
      // A selective filter can exhaust the index scan (hnsw.max_scan_tuples) before topK rows match:
      // then exact search over the matching rows answers; it returns fewer only when fewer match.
      if (approximate.length >= topK || !request.filter) return approximate;
      return query<ChunkRow>(statement(true), params.values);
    });
    return rows.map((row) => ({ ...toChunk(row), score: score(Number(row.distance)) }));
  }

  async textSearch(name: string, request: TextQuery): Promise<ScoredChunk[]> {
    const target = await this.resolve(name);
    const topK = checkTopK(request.topK);
    if (typeof request.query !== 'string' || request.query.trim() === '') {
      throw new KnowledgeError(422, 'invalid_query', 'query is a non-empty string');
    }
    if (!target.tsv) {
      throw new KnowledgeError(422, 'no_text_column', `${target.name} has no text column to search`);
    }
    const params = new Params();
    const tsquery = `websearch_to_tsquery('simple', ${params.add(request.query)}::text)`;
    const where = request.filter ? compileFilter(request.filter, target.metadata, params) : 'true';
    const rows = await this.read(target, (query) =>
      query<ChunkRow>(
        `SELECT ${this.columns(target)}, ts_rank_cd(${target.tsv}, q) AS score
           FROM ${target.table} AS t, ${tsquery} AS q
          WHERE ${target.tsv} @@ q AND ${where}
          ORDER BY score DESC, id LIMIT ${params.add(topK)}`,
        params.values,
      ),
    );
    return rows.map((row) => ({ ...toChunk(row), score: Number(row.score) }));
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
