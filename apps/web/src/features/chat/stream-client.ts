import { STREAM_DONE } from '@atelier/schemas';
import { TOKEN_REFRESH_FAIL, TOKEN_REFRESHED } from '@/lib/api-client';
import { readSse } from '@/lib/sse';
import type { TokenStore } from '@/lib/tokens';
import { isAbort, NULL_BODY, responseError, SESSION_LOST, StreamError } from './errors';

export interface StreamClientOptions {
  baseUrl: string;
  tokens: TokenStore;
  /** The session is gone (no refresh token, or the refresh failed). */
  onAuthLost(): void;
  events?: EventTarget;
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
 * 401 refreshes the tokens once (concurrent 401s share it; skipped when another request already
 * refreshed) and the request is repeated once; a failed refresh clears the session. Refusals and a
 * missing body come as StreamError, network failures as thrown (see thrownError); a user abort ends
 * the stream quietly.
 */
export function createStreamClient(options: StreamClientOptions) {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const events = options.events ?? window;
  let refreshing: Promise<void> | null = null;

  function lose(event: string | null): never {
    options.tokens.clear();
    if (event) events.dispatchEvent(new Event(event));
    options.onAuthLost();
    throw new StreamError(SESSION_LOST);
  }

  async function refreshOnce(): Promise<void> {
    const refreshToken = options.tokens.refresh();
    if (!refreshToken) lose(null);
    let res: Response;
    try {
      res = await doFetch(`${options.baseUrl}/token/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: refreshToken }),
      });
    } catch {
      return lose(TOKEN_REFRESH_FAIL);
    }
    if (!res.ok) lose(TOKEN_REFRESH_FAIL);
    options.tokens.set((await res.json()) as { access_token: string; refresh_token: string });
    events.dispatchEvent(new Event(TOKEN_REFRESHED));
  }

  function refresh(): Promise<void> {
    refreshing ??= refreshOnce().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

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
      if (options.tokens.access() === access) await refresh();
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
