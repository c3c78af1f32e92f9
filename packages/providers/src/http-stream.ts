import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { cancelledError, fromHttpStatus, ProviderError, timeoutError, unreachable } from './errors';
import { providerMessage } from './http';
import { withRetry } from './retry';

export interface SseRequest {
  headers: Record<string, string>;
  body: unknown;
  /** Longest wait for the response headers, then the longest silence between two chunks. */
  timeoutMs: number;
  retries: number;
  signal?: AbortSignal | undefined;
  /** Named in "model not found" errors. */
  model?: string;
}

const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * POSTs JSON and reads the answer as server-sent events, on node:http rather than fetch: a relayed
 * token costs about a third of the CPU of fetch + web streams + an SDK's decoder (measured by
 * bench/chat-stream), which is what lets one process carry hundreds of streams. Redirects are not
 * followed (a provider URL is checked once, when it is saved). Failures before the first byte are
 * retried (429, 5xx, unreachable); after it, an answer is never spliced.
 */
export async function* postSse(url: string, request: SseRequest): AsyncGenerator<EventSourceMessage> {
  const res = await withRetry(() => open(url, request), {
    retries: request.retries,
    signal: request.signal,
  });
  yield* events(res, request);
}

function open(url: string, request: SseRequest): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const { signal, timeoutMs } = request;
    if (signal?.aborted) return reject(cancelledError());
    const payload = JSON.stringify(request.body);
    const target = new URL(url);
    const req = (target.protocol === 'https:' ? https : http).request(target, {
      method: 'POST',
      headers: {
        ...request.headers,
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'content-length': Buffer.byteLength(payload),
      },
    });
    const onAbort = () => req.destroy(cancelledError());
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => req.destroy(timeoutError(timeoutMs)), timeoutMs);
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    req.on('error', (error: Error & { code?: string }) => {
      settle();
      if (signal?.aborted) return reject(cancelledError());
      reject(error instanceof ProviderError ? error : unreachable(error.code ?? error.message));
    });
    req.on('response', (res) => {
      settle();
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) return resolve(res);
      readError(res).then(
        (message) => reject(fromHttpStatus(status, message, request.model)),
        () => reject(fromHttpStatus(status, '', request.model)),
      );
    });
    req.end(payload);
  });
}

async function readError(res: IncomingMessage): Promise<string> {
  let text = '';
  res.setEncoding('utf8');
  for await (const chunk of res) {
    text += chunk as string;
    if (text.length > ERROR_BODY_LIMIT) break;
  }
  res.destroy();
  try {
    return providerMessage(JSON.parse(text));
  } catch {
    return text.slice(0, 300);
  }
}

/** The events of a response body, with one idle timer re-armed per chunk (no timer per token). */
async function* events(res: IncomingMessage, request: SseRequest): AsyncGenerator<EventSourceMessage> {
  const { signal, timeoutMs } = request;
  const queue: EventSourceMessage[] = [];
  let failure: Error | null = null;
  let ended = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const fail = (error: Error) => {
    failure ??= error;
    res.destroy();
    notify();
  };
  const parser = createParser({ onEvent: (event) => queue.push(event) });
  const idle = setTimeout(() => fail(timeoutError(timeoutMs)), timeoutMs);
  const onAbort = () => fail(cancelledError());
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    idle.refresh();
    parser.feed(chunk);
    if (queue.length > 0) notify();
  });
  res.on('end', () => {
    ended = true;
    notify();
  });
  res.on('error', (error) => fail(failure ? failure : unreachable(error.message)));
  res.on('close', () => {
    if (!ended) fail(unreachable('the connection closed before the answer ended'));
  });
  try {
    for (;;) {
      while (queue.length > 0) yield queue.shift()!;
      if (failure) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    clearTimeout(idle);
    signal?.removeEventListener('abort', onAbort);
    if (!ended) res.destroy();
  }
}
