import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import zlib from 'node:zlib';
import { guardedStream, NetError, type UrlPolicy } from '@atelier/net';
import type { LoaderFetch, LoaderHttpRequest } from './http';

/**
 * The LoaderFetch a host gives: `guardedStream` of @atelier/net under the host's URL policy (every hop
 * checked, credentials kept to their origin), gzip/deflate/br decoded, the body counted against
 * `maxBytes` as it arrives and the whole exchange bounded by `timeoutMs`.
 */
export function guardedLoaderFetch(policy: UrlPolicy): LoaderFetch {
  return async (request) => {
    const started = Date.now();
    const res = await guardedStream(
      {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: request.body,
        timeoutMs: request.timeoutMs,
        signal: request.signal,
        secretHeaders: request.secretHeaders,
        what: request.what,
      },
      policy,
    );
    const left = Math.max(1, request.timeoutMs - (Date.now() - started));
    const body = await readCapped(res.body, res.headers['content-encoding'], request, left);
    return { status: res.status, headers: res.headers, body, url: res.url };
  };
}

function decoderFor(encoding: string | undefined): Transform | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

function readCapped(
  res: IncomingMessage,
  encoding: string | undefined,
  request: LoaderHttpRequest,
  leftMs: number,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const decoder = decoderFor(encoding);
    const source = decoder ? res.pipe(decoder) : res;
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error: Error | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      if (error) {
        res.destroy();
        decoder?.destroy();
        reject(error);
      } else resolve(new Uint8Array(Buffer.concat(chunks)));
    };
    const timer = setTimeout(
      () =>
        finish(
          new NetError(
            504,
            'request_timeout',
            `${request.url} did not answer within ${request.timeoutMs} ms.`,
          ),
        ),
      leftMs,
    );
    const onAbort = () => finish(new NetError(499, 'cancelled', 'The request was cancelled.'));
    if (request.signal.aborted) return onAbort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    const broke = (error: Error) =>
      finish(
        error instanceof NetError
          ? error
          : new NetError(502, 'request_failed', `The answer of ${request.url} broke off: ${error.message}.`),
      );
    res.on('error', broke);
    source.on('error', broke);
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= request.maxBytes) return void chunks.push(chunk);
      const mb = Math.round((request.maxBytes / 1024 / 1024) * 10) / 10;
      finish(
        new NetError(502, 'response_too_large', `The answer of ${request.url} is larger than ${mb} MB.`),
      );
    });
    source.on('end', () => finish(null));
  });
}
