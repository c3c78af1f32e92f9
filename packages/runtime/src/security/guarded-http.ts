import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { RuntimeError } from '../errors';
import { assertSafeUrl, blocked, isAllowedAddress, type UrlPolicy } from './url-guard';

export interface GuardedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface GuardedResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Uint8Array;
  /** The URL that answered, after redirects. */
  url: string;
}

const MAX_REDIRECTS = 5;
export const MAX_RESPONSE_BYTES = 20 * 1024 * 1024;

// Like fetch: credentials are for the origin they were given for, never for where it redirects to.
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'transfer-encoding']);
const without = (headers: Record<string, string>, names: ReadonlySet<string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.has(name.toLowerCase())));

/**
 * Every URL a flow node fetches goes through here: the address is checked when the connection is made
 * (the resolver itself refuses private or reserved addresses, so a DNS answer cannot change between
 * check and connect), redirects are followed by hand and checked again, and the answer is bounded in
 * time and size.
 */
export async function guardedRequest(request: GuardedRequest, policy: UrlPolicy): Promise<GuardedResponse> {
  let url = request.url;
  let method = request.method.toUpperCase();
  let body = request.body;
  let headers = request.headers;
  for (let hop = 0; ; hop++) {
    await assertSafeUrl(url, policy, 'The request URL');
    const res = await once({ ...request, url, method, headers, body }, policy);
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && location) {
      if (hop >= MAX_REDIRECTS) {
        throw new RuntimeError(
          502,
          'too_many_redirects',
          `More than ${MAX_REDIRECTS} redirects from ${request.url}.`,
        );
      }
      const next = new URL(location, url);
      if (next.origin !== new URL(url).origin) headers = without(headers, CREDENTIAL_HEADERS);
      url = next.toString();
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers = without(headers, BODY_HEADERS);
      }
      continue;
    }
    return { ...res, url };
  }
}

function guardedLookup(policy: UrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      const refused = list.find((a) => !isAllowedAddress(a.address, policy));
      if (refused) return callback(blocked(hostname, 'The request URL'), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

function once(request: GuardedRequest, policy: UrlPolicy): Promise<Omit<GuardedResponse, 'url'>> {
  return new Promise((resolve, reject) => {
    const target = new URL(request.url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !isAllowedAddress(host, policy)) return reject(blocked(host, 'The request URL'));
    const req = (target.protocol === 'https:' ? https : http).request(target, {
      method: request.method,
      headers: request.headers,
      lookup: guardedLookup(policy),
      signal: request.signal,
      agent: false,
    });
    const timer = setTimeout(
      () =>
        req.destroy(
          new RuntimeError(
            504,
            'request_timeout',
            `${request.url} did not answer within ${request.timeoutMs} ms.`,
          ),
        ),
      request.timeoutMs,
    );
    req.on('error', (error: Error & { code?: string }) => {
      clearTimeout(timer);
      if (error instanceof RuntimeError) return reject(error);
      if (request.signal?.aborted)
        return reject(new RuntimeError(499, 'cancelled', 'The request was cancelled.'));
      reject(
        new RuntimeError(
          502,
          'request_failed',
          `The request to ${request.url} failed: ${error.code ?? error.message}.`,
        ),
      );
    });
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) {
          req.destroy(
            new RuntimeError(502, 'response_too_large', `The answer of ${request.url} is larger than 20 MB.`),
          );
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        resolve({
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          headers,
          body: new Uint8Array(Buffer.concat(chunks)),
        });
      });
    });
    req.end(request.body);
  });
}
