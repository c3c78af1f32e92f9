import { isNetError } from '@atelier/net';

/** One outgoing request of a loader; the host sends it through the SSRF guard. */
export interface LoaderHttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** For the whole exchange, body included. */
  timeoutMs: number;
  signal: AbortSignal;
  /** Answers larger than this (after decompression) are refused. */
  maxBytes: number;
  /** Credential headers besides the usual ones (`x-figma-token`), dropped when a redirect leaves the origin. */
  secretHeaders?: readonly string[] | undefined;
  /** Names the URL in guard errors ("The sitemap URL"). */
  what?: string | undefined;
}

export interface LoaderHttpResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Uint8Array;
  /** The URL that answered, after redirects. */
  url: string;
}

/** Sends a request through the SSRF guard, following (and re-checking) redirects. */
export type LoaderFetch = (request: LoaderHttpRequest) => Promise<LoaderHttpResponse>;

/** A stored tool as the loaders need it (the Figma tool: `secret` is the access token). */
export interface LoaderTool {
  type: string;
  settings: Record<string, string>;
  secret: string | null;
}

export interface LoaderLimits {
  /** One web page or sitemap. */
  pageBytes: number;
  /** One API answer (Notion, Figma). */
  apiBytes: number;
  /** One request, when the loader has no timeout of its own (Notion's comes from its node). */
  timeoutMs: number;
  /** Pages or API calls in flight at once. */
  concurrency: number;
  /** Sitemap indexes followed below the first sitemap. */
  sitemapDepth: number;
  /** Sitemap files read for one load. */
  maxSitemaps: number;
  /** Pages of one GitBook site. */
  gitbookPages: number;
  /** Pages of one Notion database. */
  notionPages: number;
  /** Nested Notion blocks read below a page. */
  blockDepth: number;
}

export const DEFAULT_LOADER_LIMITS: LoaderLimits = {
  pageBytes: 5 * 1024 * 1024,
  apiBytes: 20 * 1024 * 1024,
  timeoutMs: 30_000,
  concurrency: 4,
  sitemapDepth: 3,
  maxSitemaps: 50,
  gitbookPages: 500,
  notionPages: 1000,
  blockDepth: 5,
};

export interface LoaderDeps {
  fetch: LoaderFetch;
  /** A stored tool of the run's workspace, or null when there is none with this id. */
  resolveTool(toolId: string): Promise<LoaderTool | null>;
  /** API base URLs (tests point them at fakes); default the real ones. */
  endpoints?: { notion?: string | undefined; figma?: string | undefined } | undefined;
  limits?: Partial<LoaderLimits> | undefined;
}

/**
 * Why a load failed, in words a person can act on. `retryable` is false for what trying again would
 * not change (a refused token, a missing file): the engine then skips its retries.
 */
export class LoaderError extends Error {
  readonly retryable: boolean;
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    retryable?: boolean,
  ) {
    super(detail);
    this.name = 'LoaderError';
    this.retryable = retryable ?? (status >= 500 || status === 429);
  }
}

const TRANSIENT = new Set(['request_timeout', 'request_failed']);

/** The guard's errors as loader errors: only timeouts and broken connections are worth a retry. */
export const asLoaderError = (error: unknown): unknown =>
  isNetError(error)
    ? new LoaderError(error.status, error.code, error.detail, TRANSIENT.has(error.code))
    : error;

/** What every loader works with: the host's fetch, the limits and the run's signal. */
export interface LoaderContext {
  fetch: LoaderFetch;
  resolveTool: LoaderDeps['resolveTool'];
  limits: LoaderLimits;
  signal: AbortSignal;
  endpoints: { notion: string; figma: string };
}

export function loaderContext(deps: LoaderDeps, signal: AbortSignal): LoaderContext {
  return {
    fetch: deps.fetch,
    resolveTool: deps.resolveTool,
    limits: { ...DEFAULT_LOADER_LIMITS, ...deps.limits },
    signal,
    endpoints: {
      notion: (deps.endpoints?.notion ?? 'https://api.notion.com').replace(/\/+$/, ''),
      figma: (deps.endpoints?.figma ?? 'https://api.figma.com').replace(/\/+$/, ''),
    },
  };
}

/** An http(s) URL, or a 422 naming the field. */
export function httpUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new LoaderError(422, 'invalid_url', `${what} "${text}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LoaderError(422, 'invalid_url', `${what} must start with http:// or https://.`);
  }
  return url;
}

export const utf8 = (data: Uint8Array) => new TextDecoder().decode(data);

/** Waits, or rejects as soon as the signal fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A JSON API call: answers 429 are tried again (up to three times, after Retry-After, at most 10 s);
 * other non-2xx answers become the error `refused` builds from the status and the answer's text.
 */
export async function fetchJson<T>(
  ctx: LoaderContext,
  request: Omit<LoaderHttpRequest, 'signal' | 'maxBytes' | 'timeoutMs'> & { timeoutMs?: number },
  refused: (status: number, text: string) => LoaderError,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const res = await ctx.fetch({
      timeoutMs: ctx.limits.timeoutMs,
      ...request,
      signal: ctx.signal,
      maxBytes: ctx.limits.apiBytes,
    });
    if (res.status === 429 && attempt < 3) {
      const seconds = Number(res.headers['retry-after']);
      await sleep(Number.isFinite(seconds) ? Math.min(seconds, 10) * 1000 : 500 * 2 ** attempt, ctx.signal);
      continue;
    }
    const text = utf8(res.body);
    if (res.status < 200 || res.status > 299) throw refused(res.status, text);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new LoaderError(
        502,
        'invalid_answer',
        `${new URL(request.url).host} answered with invalid JSON.`,
      );
    }
  }
}

/** Runs `work` over the items, at most `limit` at once; results in the items' order. */
export async function mapLimit<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
