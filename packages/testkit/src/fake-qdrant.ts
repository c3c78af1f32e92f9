import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Qdrant's REST API, the subset Atelier's store uses: collections (PUT, GET,
 * DELETE, list, exists, payload index), points (upsert, delete by ids or filter, set and delete
 * payload, query, scroll, count). Exact search (Cosine on vectors normalized at upsert, as Qdrant does; Euclid; Dot), Qdrant's
 * filter semantics (must/should/must_not; match value/any/text; range on numbers and datetimes;
 * is_null, is_empty, has_id; array values match when an element does), the `{ result, status, time }`
 * envelope, and the `api-key` header when one is configured.
 */
export interface FakeQdrantOptions {
  apiKey?: string;
  /** Default '127.0.0.1'. */
  host?: string;
}

type Id = string | number;
type Payload = Record<string, unknown>;
type VectorParams = { size: number; distance: 'Cosine' | 'Euclid' | 'Dot' | 'Manhattan' };
type Filter = { must?: Condition[]; should?: Condition[]; must_not?: Condition[] };
type Condition = Record<string, unknown>;

export interface FakeQdrantPoint {
  id: Id;
  vectors: Record<string, number[]>;
  payload: Payload;
}

export interface FakeQdrantCollection {
  /** `''` is the unnamed vector. */
  vectors: Record<string, VectorParams>;
  named: boolean;
  points: Map<string, FakeQdrantPoint>;
  /** Payload indexes by field name: the schema as sent. */
  indexes: Map<string, unknown>;
}

export interface FakeQdrantRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface FakeQdrant {
  url: string;
  collections: Map<string, FakeQdrantCollection>;
  requests: FakeQdrantRequest[];
  /** The next request is answered with this status and Qdrant's error envelope. */
  failNext(status: number, error?: string): void;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COLLECTION = /^[^/\\<>:"|?*\0]{1,255}$/;

function idKey(id: unknown): string {
  if (typeof id === 'number' && Number.isInteger(id) && id >= 0) return `n:${String(id).padStart(20, '0')}`;
  if (typeof id === 'string' && UUID.test(id)) return `u:${id.toLowerCase()}`;
  throw new HttpError(400, `Format error in JSON body: value ${JSON.stringify(id)} is not a valid point ID`);
}

/** Splits a payload key (`metadata.author.name`, `metadata."a key"`) into its parts. */
function isObject(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function keyParts(key: string): string[] {
  const parts: string[] = [];
  const re = /"([^"]*)"|([^."]+)/g;
  for (let match = re.exec(key); match; match = re.exec(key)) parts.push(match[1] ?? match[2]!);
  return parts;
}

/** The values at a key path: arrays on the way and at the end are flattened, as Qdrant does. */
function valuesAt(payload: Payload, key: string): unknown[] {
  let current: unknown[] = [payload];
  for (const part of keyParts(key)) {
    current = current.flatMap((value) => {
      if (typeof value !== 'object' || value === null) return [];
      if (Array.isArray(value)) {
        return value.flatMap((item: unknown) =>
          typeof item === 'object' && item !== null && part in item ? [(item as Payload)[part]] : [],
        );
      }
      return part in value ? [(value as Payload)[part]] : [];
    });
  }
  return current.flatMap((value) => (Array.isArray(value) ? (value as unknown[]) : [value]));
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

function asTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const zoned = /([zZ]|[+-]\d{2}:?\d{2})$/.test(value) || !value.includes('T') ? value : `${value}Z`;
  const time = Date.parse(zoned);
  return Number.isNaN(time) ? undefined : time;
}

function inRange(value: unknown, range: Record<string, unknown>): boolean {
  const dates = Object.values(range).some((bound) => typeof bound === 'string');
  const x = dates ? asTime(value) : typeof value === 'number' ? value : undefined;
  if (x === undefined) return false;
  const bound = (name: string) => (dates ? asTime(range[name]) : (range[name] as number | undefined));
  const gt = bound('gt');
  const gte = bound('gte');
  const lt = bound('lt');
  const lte = bound('lte');
  return (
    (gt === undefined || x > gt) &&
    (gte === undefined || x >= gte) &&
    (lt === undefined || x < lt) &&
    (lte === undefined || x <= lte)
  );
}

function matches(point: FakeQdrantPoint, filter: Filter, collection: FakeQdrantCollection): boolean {
  const test = (condition: Condition): boolean => {
    if ('must' in condition || 'should' in condition || 'must_not' in condition) {
      return matches(point, condition as Filter, collection);
    }
    if ('has_id' in condition) {
      const key = idKey(point.id);
      return (condition.has_id as unknown[]).some((id) => idKey(id) === key);
    }
    if ('is_null' in condition) {
      const key = (condition.is_null as { key: string }).key;
      return valuesAt(point.payload, key).some((value) => value === null);
    }
    if ('is_empty' in condition) {
      const key = (condition.is_empty as { key: string }).key;
      return valuesAt(point.payload, key).every((value) => value === null);
    }
    const key = condition.key as string;
    const values = valuesAt(point.payload, key);
    if (condition.range)
      return values.some((value) => inRange(value, condition.range as Record<string, unknown>));
    const match = condition.match as { value?: unknown; any?: unknown[]; except?: unknown[]; text?: string };
    if (!match) throw new HttpError(400, `Unsupported condition ${JSON.stringify(condition)}`);
    if ('value' in match) return values.some((value) => value === match.value);
    if (match.any) return values.some((value) => match.any!.includes(value));
    if (match.except) return !values.some((value) => match.except!.includes(value));
    if (typeof match.text === 'string') {
      const indexed = (collection.indexes.get(key) as { type?: string } | undefined)?.type === 'text';
      const query = words(match.text);
      return values.some((value) => {
        if (typeof value !== 'string') return false;
        if (!indexed) return value.includes(match.text!);
        const tokens = new Set(words(value));
        return query.every((word) => tokens.has(word));
      });
    }
    throw new HttpError(400, `Unsupported match ${JSON.stringify(match)}`);
  };
  return (
    (filter.must ?? []).every(test) &&
    (filter.should === undefined || filter.should.length === 0 || filter.should.some(test)) &&
    !(filter.must_not ?? []).some(test)
  );
}

function normalize(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  return norm === 0 ? vector : vector.map((x) => x / norm);
}

function score(distance: VectorParams['distance'], a: number[], b: number[]): number {
  if (distance === 'Euclid') return Math.sqrt(a.reduce((sum, x, i) => sum + (x - b[i]!) ** 2, 0));
  if (distance === 'Manhattan') return a.reduce((sum, x, i) => sum + Math.abs(x - b[i]!), 0);
  return a.reduce((sum, x, i) => sum + x * b[i]!, 0);
}

function selectPayload(payload: Payload, selector: unknown): Payload | null {
  if (selector === false || selector === undefined) return null;
  if (Array.isArray(selector)) {
    return Object.fromEntries(Object.entries(payload).filter(([key]) => selector.includes(key)));
  }
  const exclude = (selector as { exclude?: string[] }).exclude;
  if (exclude) return Object.fromEntries(Object.entries(payload).filter(([key]) => !exclude.includes(key)));
  return payload;
}

export async function startFakeQdrant(options: FakeQdrantOptions = {}): Promise<FakeQdrant> {
  const collections = new Map<string, FakeQdrantCollection>();
  const requests: FakeQdrantRequest[] = [];
  let failure: { status: number; error: string } | undefined;

  const collection = (name: string): FakeQdrantCollection => {
    const found = collections.get(name);
    if (!found) throw new HttpError(404, `Not found: Collection \`${name}\` doesn't exist!`);
    return found;
  };
  const sorted = (c: FakeQdrantCollection, filter: Filter | undefined) =>
    [...c.points.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .filter(([, point]) => !filter || matches(point, filter, c));
  /** The points a request selects: by `points` ids or by `filter`. */
  const selected = (c: FakeQdrantCollection, body: Payload) => {
    if (Array.isArray(body.points)) {
      const ids = new Set(body.points.map(idKey));
      return [...c.points.entries()].filter(([key]) => ids.has(key));
    }
    if (body.filter) return sorted(c, body.filter as Filter);
    throw new HttpError(400, 'Format error in JSON body: points or filter is required');
  };
  const vectorOf = (c: FakeQdrantCollection, raw: unknown, using = ''): number[] => {
    const params = c.vectors[using];
    if (!params) throw new HttpError(400, `Wrong input: Not existing vector name error: ${using}`);
    if (!Array.isArray(raw) || raw.some((x) => typeof x !== 'number')) {
      throw new HttpError(400, 'Format error in JSON body: vector is an array of numbers');
    }
    if (raw.length !== params.size) {
      throw new HttpError(
        400,
        `Wrong input: Vector dimension error: expected dim: ${params.size}, got ${raw.length}`,
      );
    }
    return params.distance === 'Cosine' ? normalize(raw as number[]) : (raw as number[]);
  };

  const routes: [string, RegExp, (match: string[], body: Payload, query: URLSearchParams) => unknown][] = [
    ['GET', /^\/collections$/, () => ({ collections: [...collections.keys()].map((name) => ({ name })) })],
    ['GET', /^\/collections\/([^/]+)\/exists$/, ([name]) => ({ exists: collections.has(name!) })],
    [
      'GET',
      /^\/collections\/([^/]+)$/,
      ([name]) => {
        const c = collection(name!);
        return {
          status: 'green',
          optimizer_status: 'ok',
          points_count: c.points.size,
          indexed_vectors_count: 0,
          segments_count: 1,
          config: { params: { vectors: c.named ? c.vectors : c.vectors[''], shard_number: 1 } },
          payload_schema: Object.fromEntries(c.indexes),
        };
      },
    ],
    [
      'PUT',
      /^\/collections\/([^/]+)$/,
      ([name], body) => {
        if (!COLLECTION.test(name!))
          throw new HttpError(422, `Validation error in path: collection name ${name}`);
        if (collections.has(name!))
          throw new HttpError(409, `Wrong input: Collection \`${name}\` already exists!`);
        const vectors = body.vectors as VectorParams | Record<string, VectorParams> | undefined;
        if (!vectors || typeof vectors !== 'object')
          throw new HttpError(400, 'Format error: vectors is required');
        const named = typeof (vectors as VectorParams).size !== 'number';
        const all = named ? (vectors as Record<string, VectorParams>) : { '': vectors as VectorParams };
        for (const params of Object.values(all)) {
          if (
            !Number.isInteger(params.size) ||
            params.size < 1 ||
            !['Cosine', 'Euclid', 'Dot', 'Manhattan'].includes(params.distance)
          ) {
            throw new HttpError(422, 'Validation error in JSON body: size and distance');
          }
        }
        collections.set(name!, { vectors: all, named, points: new Map(), indexes: new Map() });
        return true;
      },
    ],
    ['DELETE', /^\/collections\/([^/]+)$/, ([name]) => collections.delete(name!)],
    [
      'PUT',
      /^\/collections\/([^/]+)\/index$/,
      ([name], body) => {
        collection(name!).indexes.set(String(body.field_name), body.field_schema);
        return { operation_id: 0, status: 'completed' };
      },
    ],
    [
      'PUT',
      /^\/collections\/([^/]+)\/points$/,
      ([name], body) => {
        const c = collection(name!);
        const points = body.points as { id: unknown; vector: unknown; payload?: Payload }[];
        if (!Array.isArray(points)) throw new HttpError(400, 'Format error in JSON body: points is required');
        const prepared = points.map((point) => {
          const vectors: Record<string, number[]> = {};
          if (c.named) {
            for (const [using, raw] of Object.entries((point.vector ?? {}) as Record<string, unknown>)) {
              vectors[using] = vectorOf(c, raw, using);
            }
          } else {
            vectors[''] = vectorOf(c, point.vector);
          }
          return [idKey(point.id), { id: point.id as Id, vectors, payload: point.payload ?? {} }] as const;
        });
        for (const [key, point] of prepared) c.points.set(key, point);
        return { operation_id: 0, status: 'completed' };
      },
    ],
    [
      'POST',
      /^\/collections\/([^/]+)\/points\/delete$/,
      ([name], body) => {
        const c = collection(name!);
        if (Array.isArray(body.points)) {
          for (const id of body.points) c.points.delete(idKey(id));
        } else if (body.filter) {
          for (const [key] of sorted(c, body.filter as Filter)) c.points.delete(key);
        } else {
          throw new HttpError(400, 'Format error in JSON body: points or filter is required');
        }
        return { operation_id: 0, status: 'completed' };
      },
    ],
    [
      'POST',
      /^\/collections\/([^/]+)\/points\/payload$/,
      ([name], body) => {
        // Set payload: the fields merged into each selected point's payload, or into the object at `key`.
        const c = collection(name!);
        if (!isObject(body.payload))
          throw new HttpError(400, 'Format error in JSON body: payload is required');
        const path = typeof body.key === 'string' ? keyParts(body.key) : [];
        for (const [, point] of selected(c, body)) {
          let target = point.payload;
          for (const part of path) {
            if (!isObject(target[part])) target[part] = {};
            target = target[part] as Payload;
          }
          Object.assign(target, structuredClone(body.payload));
        }
        return { operation_id: 0, status: 'completed' };
      },
    ],
    [
      'POST',
      /^\/collections\/([^/]+)\/points\/payload\/delete$/,
      ([name], body) => {
        // Delete payload: each key is a path; its last part is removed from the object it leads to.
        const c = collection(name!);
        if (!Array.isArray(body.keys))
          throw new HttpError(400, 'Format error in JSON body: keys is required');
        for (const [, point] of selected(c, body)) {
          for (const key of body.keys as string[]) {
            const parts = keyParts(key);
            let target: unknown = point.payload;
            for (const part of parts.slice(0, -1)) target = isObject(target) ? target[part] : undefined;
            if (isObject(target)) delete target[parts.at(-1)!];
          }
        }
        return { operation_id: 0, status: 'completed' };
      },
    ],
    [
      'POST',
      /^\/collections\/([^/]+)\/points\/count$/,
      ([name], body) => ({ count: sorted(collection(name!), body.filter as Filter | undefined).length }),
    ],
    [
      'POST',
      /^\/collections\/([^/]+)\/points\/scroll$/,
      ([name], body) => {
        const c = collection(name!);
        const limit = (body.limit as number | undefined) ?? 10;
        const all = sorted(c, body.filter as Filter | undefined);
        const from = body.offset === undefined || body.offset === null ? '' : idKey(body.offset);
        const rest = all.filter(([key]) => key >= from);
        return {
          points: rest.slice(0, limit).map(([, point]) => ({
            id: point.id,
            payload: selectPayload(point.payload, body.with_payload ?? true),
          })),
          next_page_offset: rest[limit]?.[1].id ?? null,
        };
      },
    ],
    [
      'POST',
      /^\/collections\/([^/]+)\/points\/query$/,
      ([name], body) => {
        const c = collection(name!);
        const using = typeof body.using === 'string' ? body.using : '';
        const raw = (body.query as { nearest?: unknown } | undefined)?.nearest ?? body.query;
        const vector = vectorOf(c, raw, using);
        const { distance } = c.vectors[using]!;
        const ascending = distance === 'Euclid' || distance === 'Manhattan';
        const scored = sorted(c, body.filter as Filter | undefined)
          .filter(([, point]) => point.vectors[using])
          .map(([key, point]) => ({ key, point, score: score(distance, vector, point.vectors[using]!) }))
          .sort((a, b) => (ascending ? a.score - b.score : b.score - a.score) || (a.key < b.key ? -1 : 1));
        const offset = (body.offset as number | undefined) ?? 0;
        const limit = (body.limit as number | undefined) ?? 10;
        return {
          points: scored.slice(offset, offset + limit).map(({ point, score: value }) => ({
            id: point.id,
            version: 0,
            score: value,
            payload: selectPayload(point.payload, body.with_payload ?? false),
          })),
        };
      },
    ],
  ];

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    let body: Payload = {};
    const time = () => (performance.now() - started) / 1000;
    try {
      body = text ? (JSON.parse(text) as Payload) : {};
    } catch {
      return answer(res, 400, { status: { error: 'Format error in JSON body' }, time: time() });
    }
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname + url.search,
      headers: req.headers,
      body,
    });
    if (failure) {
      const { status, error } = failure;
      failure = undefined;
      return answer(res, status, { status: { error }, time: time() });
    }
    if (options.apiKey) {
      const bearer = req.headers.authorization?.replace(/^Bearer\s+/i, '');
      if (req.headers['api-key'] !== options.apiKey && bearer !== options.apiKey) {
        return answer(res, 401, {
          status: { error: 'Must provide an API key or an Authorization bearer token' },
          time: time(),
        });
      }
    }
    for (const [method, pattern, run] of routes) {
      const match = pattern.exec(url.pathname);
      if (method !== req.method || !match) continue;
      try {
        const result = run(match.slice(1).map(decodeURIComponent), body, url.searchParams);
        return answer(res, 200, { result, status: 'ok', time: time() });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        return answer(res, error.status, { status: { error: error.message }, time: time() });
      }
    }
    return answer(res, 404, { status: { error: `Not found: ${url.pathname}` }, time: time() });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      answer(res, 500, { status: { error: `Service internal error: ${String(error)}` }, time: 0 }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    collections,
    requests,
    failNext(status, error = 'Service internal error') {
      failure = { status, error };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
