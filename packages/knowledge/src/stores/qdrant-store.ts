import {
  QdrantClient,
  type Payload,
  type QdrantClientOptions,
  type QdrantCollectionInfo,
  type QdrantDistance,
  type QdrantId,
  type QdrantPoint,
  type QdrantVectorParams,
} from './qdrant-client';
import { parseTextQuery } from './keywords';
import { compileQdrantFilter, METADATA_KEY, payloadKey, pointId, type QdrantFilter } from './qdrant-filter';
import {
  DISTANCES,
  KnowledgeError,
  checkPreviewPage,
  checkTopK,
  checkVector,
  contentHash,
  type ChunkInput,
  type CollectionInfo,
  type CollectionSpec,
  type CollectionSummary,
  type Distance,
  type Metadata,
  type MetadataChange,
  type MetadataFilter,
  type PreviewOptions,
  type ScoredChunk,
  type StoredChunk,
  type TextQuery,
  type VectorQuery,
  type VectorStore,
} from './vector-store';

export interface QdrantStoreOptions extends QdrantClientOptions {
  /** Points per upsert request. Default 256 (about 4 MB of JSON at 1,536 dimensions). */
  batchSize?: number;
}

/** Names of collections the store creates: the built-in store's rule. */
const OWN_NAME = /^[a-z][a-z0-9_]{0,47}$/;
/** Names of existing collections it reads: Qdrant allows more (mixed case, leading digits, dashes). */
export const QDRANT_COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,254}$/;
export const QDRANT_MAX_DIMENSION = 65_536;
const KEY_SAMPLE = 10_000;
/** Text search scores at most this many matching points (Qdrant has no text ranking). */
export const TEXT_CANDIDATES = 5_000;
const SCROLL_PAGE = 1_000;

const TO_QDRANT: Record<Distance, QdrantDistance> = { cosine: 'Cosine', l2: 'Euclid', inner_product: 'Dot' };
const FROM_QDRANT: Record<QdrantDistance, Distance> = {
  Cosine: 'cosine',
  Euclid: 'l2',
  Dot: 'inner_product',
  // No exact counterpart: a distance, lower is closer, like l2.
  Manhattan: 'l2',
};

interface Resolved {
  name: string;
  dimension: number;
  distance: Distance;
  /** The vector's name in a collection of named vectors; undefined for the single unnamed vector. */
  using: string | undefined;
}

function badName(name: unknown): never {
  throw new KnowledgeError(
    422,
    'invalid_collection_name',
    `Invalid collection name ${JSON.stringify(name)}: letters, digits, _ and - (new collections: lower-case letters, digits and _, starting with a letter, at most 48)`,
  );
}

/** Payload keys read as the chunk's text: ours, then LangChain's and other common ones. */
const CONTENT_KEYS = ['content', 'page_content', 'text', 'document'];

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * A chunk from a point's payload. Ours is `{ id, content, content_hash, metadata }`; points written by
 * other tools are read too: LangChain's `page_content`, or `text`/`document`, and the rest as metadata.
 */
function toChunk(point: QdrantPoint): StoredChunk {
  const payload: Payload = point.payload ?? {};
  const contentKey = CONTENT_KEYS.find((key) => typeof payload[key] === 'string');
  const content = contentKey ? (payload[contentKey] as string) : '';
  const nested = payload[METADATA_KEY];
  const metadata =
    typeof nested === 'object' && nested !== null && !Array.isArray(nested)
      ? (nested as Metadata)
      : (Object.fromEntries(
          Object.entries(payload).filter(([key]) => !['id', 'content_hash', contentKey].includes(key)),
        ) as Metadata);
  return {
    id: typeof payload.id === 'string' ? payload.id : String(point.id),
    content,
    contentHash: typeof payload.content_hash === 'string' ? payload.content_hash : contentHash(content),
    metadata,
  };
}

function vectorParams(info: QdrantCollectionInfo): { params: QdrantVectorParams; using: string | undefined } {
  const vectors = info.config.params.vectors;
  if (typeof (vectors as QdrantVectorParams).size === 'number') {
    return { params: vectors as QdrantVectorParams, using: undefined };
  }
  const [using, params] = Object.entries(vectors as Record<string, QdrantVectorParams>)[0] ?? [];
  if (!params) throw new KnowledgeError(422, 'no_vectors', 'This Qdrant collection has no dense vectors');
  return { params, using };
}

/**
 * Qdrant behind `VectorStore`, over its REST API. Each chunk is a point whose id is the UUIDv5 of the
 * chunk id and whose payload is `{ id, content, content_hash, metadata }`; filters apply to
 * `metadata.<field>`. Collections it creates get a full-text index on `content` (for textSearch) and a
 * keyword index on `metadata.document_id`.
 */
export class QdrantStore implements VectorStore {
  readonly kind = 'qdrant';
  private readonly client: QdrantClient;
  private readonly batchSize: number;

  constructor(options: QdrantStoreOptions) {
    this.client = new QdrantClient(options);
    this.batchSize = options.batchSize ?? 256;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) {
      throw new TypeError('batchSize is a positive integer');
    }
  }

  private path(name: unknown, rest = ''): string {
    if (typeof name !== 'string' || !QDRANT_COLLECTION_NAME.test(name)) badName(name);
    return `/collections/${encodeURIComponent(name)}${rest}`;
  }

  private async resolve(name: string): Promise<Resolved> {
    const info = await this.client.call<QdrantCollectionInfo>('GET', this.path(name), undefined, true);
    if (!info)
      throw new KnowledgeError(404, 'collection_not_found', `No collection named ${JSON.stringify(name)}`);
    const { params, using } = vectorParams(info);
    return { name, dimension: params.size, distance: FROM_QDRANT[params.distance] ?? 'cosine', using };
  }

  private summary(target: Resolved): CollectionSummary {
    return { name: target.name, dimension: target.dimension, distance: target.distance, writable: true };
  }

  async createCollection(spec: CollectionSpec): Promise<CollectionSummary> {
    const name = spec?.name;
    if (typeof name !== 'string' || !OWN_NAME.test(name)) badName(name);
    const distance = spec.distance ?? 'cosine';
    if (!DISTANCES.includes(distance)) {
      throw new KnowledgeError(422, 'invalid_distance', `distance is one of ${DISTANCES.join(', ')}`);
    }
    if (!Number.isInteger(spec.dimension) || spec.dimension < 1 || spec.dimension > QDRANT_MAX_DIMENSION) {
      throw new KnowledgeError(
        422,
        'invalid_dimension',
        `dimension is an integer from 1 to ${QDRANT_MAX_DIMENSION}`,
      );
    }
    const existing = await this.client.call('GET', this.path(name), undefined, true);
    if (existing) throw new KnowledgeError(409, 'collection_exists', `A collection named ${name} exists`);
    await this.client.call('PUT', this.path(name), {
      vectors: { size: spec.dimension, distance: TO_QDRANT[distance] },
    });
    await this.client.call('PUT', this.path(name, '/index?wait=true'), {
      field_name: 'content',
      field_schema: { type: 'text', tokenizer: 'word', lowercase: true, min_token_len: 1, max_token_len: 40 },
    });
    await this.client.call('PUT', this.path(name, '/index?wait=true'), {
      field_name: `${METADATA_KEY}.document_id`,
      field_schema: 'keyword',
    });
    return { name, dimension: spec.dimension, distance, writable: true };
  }

  async dropCollection(name: string): Promise<void> {
    const dropped = await this.client.call<boolean>('DELETE', this.path(name), undefined, true);
    // Qdrant answers `false` for a collection that was not there.
    if (!dropped)
      throw new KnowledgeError(404, 'collection_not_found', `No collection named ${JSON.stringify(name)}`);
  }

  async listCollections(): Promise<CollectionSummary[]> {
    const result = await this.client.call<{ collections: { name: string }[] }>('GET', '/collections');
    const names = (result?.collections ?? [])
      .map((c) => c.name)
      .filter((name) => QDRANT_COLLECTION_NAME.test(name))
      .sort();
    const summaries: CollectionSummary[] = [];
    for (const name of names) {
      // A collection dropped meanwhile, or one without dense vectors, is left out.
      const target = await this.resolve(name).catch(() => undefined);
      if (target) summaries.push(this.summary(target));
    }
    return summaries;
  }

  private async count(name: string, filter?: QdrantFilter): Promise<number> {
    const result = await this.client.call<{ count: number }>('POST', this.path(name, '/points/count'), {
      exact: true,
      ...(filter ? { filter } : {}),
    });
    return result?.count ?? 0;
  }

  private async scroll(
    name: string,
    body: { limit: number; offset?: QdrantId | null; filter?: QdrantFilter; with_payload: unknown },
  ): Promise<{ points: QdrantPoint[]; next: QdrantId | null }> {
    const result = await this.client.call<{ points: QdrantPoint[]; next_page_offset?: QdrantId | null }>(
      'POST',
      this.path(name, '/points/scroll'),
      { ...body, with_vector: false },
    );
    return { points: result?.points ?? [], next: result?.next_page_offset ?? null };
  }

  async collectionInfo(name: string): Promise<CollectionInfo> {
    const target = await this.resolve(name);
    const count = await this.count(name);
    // Keys seen in a sample of payloads: complete on small collections, cheap on large ones.
    const keys = new Set<string>();
    let offset: QdrantId | null | undefined;
    for (let seen = 0; seen < KEY_SAMPLE && offset !== null;) {
      const page = await this.scroll(name, {
        limit: SCROLL_PAGE,
        offset,
        with_payload: { exclude: CONTENT_KEYS },
      });
      for (const point of page.points) Object.keys(toChunk(point).metadata).forEach((key) => keys.add(key));
      seen += page.points.length;
      offset = page.next;
    }
    return { ...this.summary(target), count, metadataKeys: [...keys].sort() };
  }

  /** Pages in Qdrant's point-id order (UUIDs of the chunk ids), not in chunk-id order. */
  async preview(name: string, options: PreviewOptions = {}): Promise<StoredChunk[]> {
    const { limit, offset } = checkPreviewPage(options);
    await this.resolve(name);
    // Qdrant's scroll offset is a point id: skip `offset` points (ids only), then read the page.
    let start: QdrantId | null | undefined;
    for (let skipped = 0; skipped < offset;) {
      const step = Math.min(SCROLL_PAGE * 10, offset - skipped);
      const page = await this.scroll(name, { limit: step, offset: start, with_payload: false });
      skipped += page.points.length;
      start = page.next;
      if (start === null) return [];
    }
    const { points } = await this.scroll(name, { limit, offset: start, with_payload: true });
    return points.map(toChunk);
  }

  async upsert(name: string, chunks: readonly ChunkInput[]): Promise<number> {
    const target = await this.resolve(name);
    if (!Array.isArray(chunks))
      throw new KnowledgeError(422, 'invalid_chunk', 'upsert takes an array of chunks');
    // Later chunks with the same id replace earlier ones.
    const byId = new Map<
      string,
      { id: string; vector: number[] | Record<string, number[]>; payload: Payload }
    >();
    chunks.forEach((chunk, index) => {
      const where = `chunk ${index}`;
      if (typeof chunk?.id !== 'string' || chunk.id.length === 0 || chunk.id.length > 512) {
        throw new KnowledgeError(422, 'invalid_chunk', `${where}: id is a string of 1 to 512 characters`);
      }
      if (typeof chunk.content !== 'string') {
        throw new KnowledgeError(422, 'invalid_chunk', `${where}: content is a string`);
      }
      const metadata = chunk.metadata ?? {};
      if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
        throw new KnowledgeError(422, 'invalid_chunk', `${where}: metadata is a JSON object`);
      }
      checkVector(chunk.embedding, target.dimension);
      const vector = [...chunk.embedding];
      byId.delete(chunk.id);
      byId.set(chunk.id, {
        id: pointId(chunk.id),
        vector: target.using === undefined ? vector : { [target.using]: vector },
        payload: {
          id: chunk.id,
          content: chunk.content,
          content_hash: contentHash(chunk.content),
          [METADATA_KEY]: metadata,
        },
      });
    });
    const points = [...byId.values()];
    for (let start = 0; start < points.length; start += this.batchSize) {
      await this.client.call('PUT', this.path(name, '/points?wait=true'), {
        points: points.slice(start, start + this.batchSize),
      });
    }
    return points.length;
  }

  async deleteByIds(name: string, ids: readonly string[]): Promise<number> {
    await this.resolve(name);
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
      throw new KnowledgeError(422, 'invalid_ids', 'ids is an array of strings');
    }
    if (ids.length === 0) return 0;
    const points = [...new Set(ids)].map(pointId);
    // Qdrant does not say how many it deleted: count them first.
    const found = await this.count(name, { must: [{ has_id: points }] });
    await this.client.call('POST', this.path(name, '/points/delete?wait=true'), { points });
    return found;
  }

  async deleteWhere(name: string, filter: MetadataFilter): Promise<number> {
    await this.resolve(name);
    const compiled = compileQdrantFilter(filter);
    const found = await this.count(name, compiled);
    await this.client.call('POST', this.path(name, '/points/delete?wait=true'), { filter: compiled });
    return found;
  }

  async updateMetadata(name: string, filter: MetadataFilter, change: MetadataChange): Promise<number> {
    await this.resolve(name);
    const compiled = compileQdrantFilter(filter);
    const found = await this.count(name, compiled);
    if (found === 0) return 0;
    // Set payload under our metadata key merges the fields in; delete payload takes their paths.
    if (Object.keys(change.set).length > 0) {
      await this.client.call('POST', this.path(name, '/points/payload?wait=true'), {
        payload: change.set,
        key: METADATA_KEY,
        filter: compiled,
      });
    }
    if (change.unset.length > 0) {
      await this.client.call('POST', this.path(name, '/points/payload/delete?wait=true'), {
        keys: change.unset.map(payloadKey),
        filter: compiled,
      });
    }
    return found;
  }

  async query(name: string, request: VectorQuery): Promise<ScoredChunk[]> {
    const target = await this.resolve(name);
    const topK = checkTopK(request.topK);
    checkVector(request.vector, target.dimension);
    const filter = request.filter ? compileQdrantFilter(request.filter) : undefined;
    const result = await this.client.call<{ points: QdrantPoint[] }>(
      'POST',
      this.path(name, '/points/query'),
      {
        query: [...request.vector],
        ...(target.using === undefined ? {} : { using: target.using }),
        limit: topK,
        with_payload: true,
        ...(filter ? { filter } : {}),
      },
    );
    // Qdrant scores Euclid (and Manhattan) as a distance: ours is higher-is-closer.
    const sign = target.distance === 'l2' ? -1 : 1;
    return (result?.points ?? []).map((point) => ({ ...toChunk(point), score: sign * (point.score ?? 0) }));
  }

  /**
   * Full-text search (`parseTextQuery`) through Qdrant's `match: { text }` on `content` (its full-text
   * index; a plain substring match on collections without it): any keyword of the question, or every
   * quoted phrase (its words, in any order: Qdrant matches no phrases), and no -excluded word; scored
   * here by term overlap (occurrences of the query's words over the chunk's length), since Qdrant does
   * not rank text matches. At most TEXT_CANDIDATES matching points are scored.
   */
  async textSearch(name: string, request: TextQuery): Promise<ScoredChunk[]> {
    await this.resolve(name);
    const topK = checkTopK(request.topK);
    if (typeof request.query !== 'string' || request.query.trim() === '') {
      throw new KnowledgeError(422, 'invalid_query', 'query is a non-empty string');
    }
    const { phrases, excluded, keywords } = parseTextQuery(request.query);
    const terms = new Set([...phrases, ...keywords].flatMap(words));
    if (terms.size === 0) return [];
    const content = (text: string): QdrantFilter => ({ key: 'content', match: { text } });
    const must: QdrantFilter[] =
      phrases.length > 0 ? phrases.map(content) : [{ should: keywords.map(content) }];
    if (request.filter) must.push(compileQdrantFilter(request.filter));
    const filter: QdrantFilter = {
      must,
      ...(excluded.length > 0 ? { must_not: excluded.map(content) } : {}),
    };
    const scored: ScoredChunk[] = [];
    let offset: QdrantId | null | undefined;
    let seen = 0;
    do {
      const page = await this.scroll(name, {
        limit: Math.min(SCROLL_PAGE, TEXT_CANDIDATES - seen),
        offset,
        filter,
        with_payload: true,
      });
      for (const point of page.points) {
        const chunk = toChunk(point);
        const tokens = words(chunk.content);
        const hits = tokens.filter((token) => terms.has(token)).length;
        if (hits > 0) scored.push({ ...chunk, score: hits / Math.sqrt(tokens.length) });
      }
      seen += page.points.length;
      offset = page.next;
    } while (offset !== null && seen < TEXT_CANDIDATES);
    return scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, topK);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A store over a Qdrant server (`url`, with its `api-key` when set), every request through the SSRF guard. */
export function createQdrantStore(options: QdrantStoreOptions): QdrantStore {
  return new QdrantStore(options);
}
