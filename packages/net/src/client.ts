import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import { addressKind, type UrlPolicy } from './address';
import { NetError } from './errors';
import { guardedLookup, precheck, type Refusal } from './guard';

export interface GuardedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | undefined;
  /** Buffered: the whole exchange; streamed: until the response headers. Without: no limit. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Header names that carry credentials besides the usual ones; dropped when a redirect leaves the origin. */
  secretHeaders?: readonly string[] | undefined;
  /** Names the URL in errors: "The request URL" unless told. */
  what?: string | undefined;
}

export interface GuardedResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Uint8Array;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface GuardedStreamResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  /** The response, unread: the caller reads it (or destroys it). */
  body: IncomingMessage;
  url: string;
}

export const MAX_REDIRECTS = 5;
export const MAX_RESPONSE_BYTES = 20 * 1024 * 1024;

// Like fetch: credentials are for the origin they were given for, never for where it redirects to.
export const CREDENTIAL_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'api-key',
  'x-api-key',
];
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'transfer-encoding']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const without = (headers: Record<string, string>, names: ReadonlySet<string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.has(name.toLowerCase())));

const cancelled = () => new NetError(499, 'cancelled', 'The request was cancelled.');

// One keep-alive pool per policy: every socket in it was checked against that policy when it connected.
const agents = new WeakMap<UrlPolicy, { http: http.Agent; https: https.Agent }>();
function agentFor(policy: UrlPolicy, protocol: string): http.Agent {
  let pair = agents.get(policy);
  if (!pair) {
    pair = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
    agents.set(policy, pair);
  }
  return protocol === 'https:' ? pair.https : pair.http;
}

function flatten(res: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** A signal that ends the exchange on the caller's cancellation or after `timeoutMs`, with a NetError. */
function deadline(request: GuardedRequest) {
  const controller = new AbortController();
  const { signal, timeoutMs } = request;
  const onAbort = () => controller.abort(cancelled());
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer =
    timeoutMs === undefined
      ? null
      : setTimeout(
          () =>
            controller.abort(
              new NetError(504, 'request_timeout', `${request.url} did not answer within ${timeoutMs} ms.`),
            ),
          timeoutMs,
        );
  return {
    signal: controller.signal,
    clear() {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

function once(
  target: URL,
  init: { method: string; headers: Record<string, string>; body: string | Uint8Array | undefined },
  refusal: Refusal,
  agent: http.Agent | false,
  policy: UrlPolicy,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const req = (target.protocol === 'https:' ? https : http).request(target, {
      method: init.method,
      headers: init.headers,
      lookup: guardedLookup(policy, refusal),
      agent,
    });
    const onAbort = () => req.destroy(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error: Error & { code?: string }) => {
      signal.removeEventListener('abort', onAbort);
      if (error instanceof NetError) return reject(error);
      if (signal.aborted) return reject(signal.reason as Error);
      const reason = error.code ?? error.message;
      reject(new NetError(502, 'request_failed', `The request to ${target.href} failed: ${reason}.`, reason));
    });
    req.on('response', (res: IncomingMessage) => {
      signal.removeEventListener('abort', onAbort);
      resolve(res);
    });
    req.end(init.body);
  });
}

/**
 * Sends a request and follows redirects by hand: each hop is checked against the policy when it
 * connects (IP literals before), credentials stay with their origin, a 303 (and a POST answered 301
 * or 302) becomes a GET as with fetch, and once a hop was answered from a public address no later
 * hop may reach a non-public one. Answers the final response, unread.
 */
async function exchange(
  request: GuardedRequest,
  policy: UrlPolicy,
  signal: AbortSignal,
): Promise<GuardedStreamResponse> {
  // A caller in plain JavaScript could forget it: no policy is no request.
  if (!policy?.mode) throw new TypeError('A URL policy is required for outbound requests.');
  const what = request.what ?? 'The request URL';
  const secrets = new Set([
    ...CREDENTIAL_HEADERS,
    ...(request.secretHeaders ?? []).map((h) => h.toLowerCase()),
  ]);
  let url = request.url;
  let method = request.method.toUpperCase();
  let body = request.body;
  let headers = request.headers;
  let requirePublic = false;
  for (let hop = 0; ; hop++) {
    const refusal: Refusal = { what, redirect: hop > 0, requirePublic };
    const target = precheck(url, policy, refusal);
    // A redirect gets a fresh connection: a pooled one was checked without this hop's constraints.
    const agent = hop === 0 ? agentFor(policy, target.protocol) : false;
    const res = await once(target, { method, headers, body }, refusal, agent, policy, signal);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (!REDIRECTS.has(status) || !location) {
      return { status, statusText: res.statusMessage ?? '', headers: flatten(res), body: res, url };
    }
    const from = res.socket?.remoteAddress;
    res.resume();
    if (hop >= MAX_REDIRECTS) {
      throw new NetError(
        502,
        'too_many_redirects',
        `More than ${MAX_REDIRECTS} redirects from ${request.url}.`,
      );
    }
    if (!from || addressKind(from, policy) === 'public') requirePublic = true;
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new NetError(502, 'unsafe_redirect', `${what} redirected to an invalid URL.`);
    }
    if (next.origin !== target.origin) headers = without(headers, secrets);
    if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
      headers = without(headers, BODY_HEADERS);
    }
    url = next.toString();
  }
}

/** A request answered whole (at most 20 MB), within `timeoutMs` for everything: for flow nodes. */
export async function guardedRequest(request: GuardedRequest, policy: UrlPolicy): Promise<GuardedResponse> {
  const limit = deadline(request);
  try {
    const res = await exchange(request, policy, limit.signal);
    const body = await readAll(res.body, limit.signal, request.url);
    return { status: res.status, statusText: res.statusText, headers: res.headers, body, url: res.url };
  } finally {
    limit.clear();
  }
}

function readAll(res: IncomingMessage, signal: AbortSignal, url: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => res.destroy(signal.reason as Error);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_RESPONSE_BYTES) {
        res.destroy(new NetError(502, 'response_too_large', `The answer of ${url} is larger than 20 MB.`));
        return;
      }
      chunks.push(chunk);
    });
    res.on('error', (error: Error) => {
      signal.removeEventListener('abort', onAbort);
      reject(
        error instanceof NetError
          ? error
          : new NetError(
              502,
              'request_failed',
              `The answer of ${url} broke off: ${error.message}.`,
              error.message,
            ),
      );
    });
    res.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(new Uint8Array(Buffer.concat(chunks)));
    });
  });
}

/**
 * A request whose answer is streamed: `timeoutMs` bounds the wait for the response headers; the
 * caller reads the body (and handles its own cancellation from then on). Used by the SSE client.
 */
export async function guardedStream(
  request: GuardedRequest,
  policy: UrlPolicy,
): Promise<GuardedStreamResponse> {
  const limit = deadline(request);
  try {
    return await exchange(request, policy, limit.signal);
  } finally {
    limit.clear();
  }
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export interface GuardedFetchOptions {
  what?: string | undefined;
  secretHeaders?: readonly string[] | undefined;
}

/**
 * A fetch-compatible function on the guarded client, for code that takes a `fetch` (the OpenAI SDK):
 * it answers a WHATWG Response with a streamed body. Redirects are always followed by the guard
 * (`redirect: 'manual'` is not supported); gzip, deflate and br answers are decoded, as fetch does.
 */
export function createGuardedFetch(policy: UrlPolicy, options: GuardedFetchOptions = {}): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined) ?? undefined;
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const headers = Object.fromEntries(request.headers);
    let res: GuardedStreamResponse;
    try {
      res = await guardedStream(
        {
          method: request.method,
          url: request.url,
          headers,
          body,
          signal: signal ?? undefined,
          what: options.what,
          secretHeaders: options.secretHeaders,
        },
        policy,
      );
    } catch (error) {
      if (signal?.aborted)
        throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
      throw error;
    }
    return toResponse(res, request.method, signal ?? undefined);
  };
}

function toResponse(res: GuardedStreamResponse, method: string, signal: AbortSignal | undefined): Response {
  const incoming = res.body;
  if (res.status < 200 || res.status > 599) {
    incoming.destroy();
    throw new NetError(502, 'request_failed', `${res.url} answered with the invalid status ${res.status}.`);
  }
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (decoder && (name === 'content-encoding' || name === 'content-length')) continue;
    headers.append(raw[i]!, raw[i + 1]!);
  }
  const empty = NULL_BODY.has(res.status) || method === 'HEAD';
  let body: ReadableStream<Uint8Array> | null = null;
  if (empty) {
    incoming.resume();
  } else {
    const source: Readable = decoder ? pipeline(incoming, decoder, () => undefined) : incoming;
    if (signal) {
      const onAbort = () => incoming.destroy(signal.reason as Error);
      if (signal.aborted) onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      incoming.once('close', () => signal.removeEventListener('abort', onAbort));
    }
    body = Readable.toWeb(source) as ReadableStream<Uint8Array>;
  }
  const response = new Response(body, { status: res.status, statusText: res.statusText, headers });
  Object.defineProperty(response, 'url', { value: res.url });
  return response;
}
