import { createGuardedFetch, isNetError, type UrlPolicy } from '@atelier/net';
import { KnowledgeError } from './vector-store';

/**
 * A small typed client for the part of Qdrant's REST API the store uses, over Atelier's SSRF-guarded
 * fetch. (`@qdrant/js-client-rest` sends through the global fetch with its own undici dispatcher and
 * takes no custom fetch, so it could not be made to go through the guard.)
 */
export interface QdrantClientOptions {
  url: string;
  apiKey?: string | undefined;
  urlPolicy: UrlPolicy;
  /** Per request. Default 30 s. */
  timeoutMs?: number | undefined;
}

export type QdrantDistance = 'Cosine' | 'Euclid' | 'Dot' | 'Manhattan';
export type QdrantId = string | number;
export type Payload = Record<string, unknown>;

export interface QdrantPoint {
  id: QdrantId;
  payload?: Payload | null;
  score?: number;
}

export interface QdrantVectorParams {
  size: number;
  distance: QdrantDistance;
}

export interface QdrantCollectionInfo {
  points_count?: number | null;
  config: { params: { vectors: QdrantVectorParams | Record<string, QdrantVectorParams> } };
}

/** Qdrant's answers: `{ result, status: 'ok', time }`, or `{ status: { error }, time }` on failure. */
interface Envelope<T> {
  result?: T;
  status?: string | { error?: string };
}

export class QdrantClient {
  private readonly base: string;
  private readonly fetch: typeof fetch;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;

  constructor(options: QdrantClientOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new KnowledgeError(422, 'invalid_url', 'The Qdrant URL is not a valid URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new KnowledgeError(422, 'invalid_url', 'The Qdrant URL starts with http:// or https://');
    }
    this.base = parsed.href.replace(/\/+$/, '');
    this.fetch = createGuardedFetch(options.urlPolicy, { what: 'The Qdrant URL' });
    this.headers = { 'content-type': 'application/json', accept: 'application/json' };
    if (options.apiKey) this.headers['api-key'] = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /**
   * One call; answers `result`. A 404 answers `undefined` when `missingOk` (so callers decide what is
   * missing); every other failure becomes a KnowledgeError.
   */
  async call<T>(method: string, path: string, body?: unknown, missingOk = false): Promise<T | undefined> {
    let response: Response;
    let text: string;
    try {
      response = await this.fetch(`${this.base}${path}`, {
        method,
        headers: this.headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw unreachable(error, this.timeoutMs);
    }
    let envelope: Envelope<T> = {};
    try {
      envelope = text ? (JSON.parse(text) as Envelope<T>) : {};
    } catch {
      if (response.ok) {
        throw new KnowledgeError(
          502,
          'connector_unreachable',
          'Qdrant answered with something that is not JSON',
        );
      }
    }
    const message =
      typeof envelope.status === 'object' && envelope.status?.error
        ? envelope.status.error
        : `${response.status} ${response.statusText}`.trim();
    if (response.ok) return envelope.result;
    if (response.status === 404 && missingOk) return undefined;
    if (response.status === 401 || response.status === 403) {
      throw new KnowledgeError(502, 'connector_auth_failed', `Qdrant refused the API key: ${message}`);
    }
    if (response.status === 404) throw new KnowledgeError(404, 'collection_not_found', message);
    if (response.status === 409 || /already exists/i.test(message)) {
      throw new KnowledgeError(409, 'collection_exists', message);
    }
    if (response.status >= 400 && response.status < 500) {
      throw new KnowledgeError(422, 'invalid_request', `Qdrant refused the request: ${message}`);
    }
    throw new KnowledgeError(502, 'connector_unreachable', `Qdrant failed: ${message}`);
  }
}

function unreachable(error: unknown, timeoutMs: number): KnowledgeError {
  if (isNetError(error)) {
    // The guard's refusals of the URL itself (unsafe_url…) are the caller's to fix: 422.
    return error.status === 422
      ? new KnowledgeError(422, error.code, error.detail)
      : new KnowledgeError(502, 'connector_unreachable', error.detail);
  }
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new KnowledgeError(502, 'connector_unreachable', `Qdrant did not answer within ${timeoutMs} ms`);
  }
  return new KnowledgeError(
    502,
    'connector_unreachable',
    `Qdrant could not be reached: ${error instanceof Error ? error.message : String(error)}`,
  );
}
