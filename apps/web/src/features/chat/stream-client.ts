import { STREAM_DONE } from '@atelier/schemas';
import { readSse } from '@/lib/sse';
import type { TokenStore } from '@/lib/tokens';
import { isAbort, NULL_BODY, responseError, SESSION_LOST, StreamError } from './errors';

export interface StreamClientOptions {
  baseUrl: string;
  tokens: TokenStore;
  /**
   * The API client's shared refresh (it stores the tokens, broadcasts, and ends the session when it
   * fails). Sharing it matters: refresh tokens rotate, and two refreshes with one token would be
   * taken for a replay and close the session.
   */
  refresh(): Promise<void>;
  fetch?: typeof fetch;
}

async function bodyOf(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

/**
 * POSTs that answer server-sent events, with the API client's session rules: the bearer token; a
 * 401 refreshes the tokens once (shared with every other request; skipped when another request
 * already refreshed) and the request is repeated once. Refusals and a missing body come as
 * StreamError, network failures as thrown (see thrownError); a user abort ends the stream quietly.
 */
export function createStreamClient(options: StreamClientOptions) {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  async function open(path: string, body: unknown, signal: AbortSignal, retried = false): Promise<Response> {
    const access = options.tokens.access();
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      'content-type': 'application/json',
    };
    if (access) headers.authorization = `Bearer ${access}`;
    // Network failures pass through as they are: thrownError() reads them as timeouts.
    const res = await doFetch(`${options.baseUrl}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal,
    });
    if (res.status === 401 && !retried) {
      await res.body?.cancel().catch(() => undefined);
      // Another request may have refreshed meanwhile: then its new token is enough.
      if (options.tokens.access() === access) {
        await options.refresh().catch(() => {
          throw new StreamError(SESSION_LOST);
        });
      }
      return open(path, body, signal, true);
    }
    if (!res.ok) throw new StreamError(responseError(res.status, res.statusText, await bodyOf(res)));
    return res;
  }

  /**
   * The events of one streaming POST as parsed JSON, up to `data: [DONE]` or the end of the body.
   * Lines that are not JSON are skipped.
   */
  async function* stream(path: string, body: unknown, signal: AbortSignal): AsyncGenerator<unknown> {
    let res: Response;
    try {
      res = await open(path, body, signal);
    } catch (error) {
      if (isAbort(error) || signal.aborted) return;
      throw error;
    }
    if (!res.body) throw new StreamError(NULL_BODY);
    try {
      for await (const message of readSse(res.body)) {
        if (message.data.trim() === STREAM_DONE) return;
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          continue;
        }
        yield data;
      }
    } catch (error) {
      if (isAbort(error) || signal.aborted) return;
      throw error;
    }
  }

  return { stream };
}

export type StreamClient = ReturnType<typeof createStreamClient>;
