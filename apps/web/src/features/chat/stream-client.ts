import { STREAM_DONE } from '@atelier/schemas/constants';
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

/** How to open a stream: a POST with a JSON body (the default), or a GET that resumes after an event id. */
export interface StreamRequest {
  method?: 'GET' | 'POST';
  body?: unknown;
  /** Sent as `Last-Event-ID`, so the server resumes right after that event. */
  lastEventId?: string | null;
}

/** One parsed event with its SSE `id:` when the server gave one. */
export interface StreamEvent {
  id?: string;
  data: unknown;
}

/**
 * A refusal of the streaming request. Still a StreamError (the chat shows it the same way); it
 * also keeps the status and the parsed body, for callers that read more than `detail` (the 422
 * `problems` list of a flow that cannot run).
 */
export class StreamResponseError extends StreamError {
  constructor(
    info: StreamError['info'],
    readonly status: number,
    readonly body: unknown,
  ) {
    super(info);
  }
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

  async function open(
    path: string,
    request: StreamRequest,
    signal: AbortSignal,
    retried = false,
  ): Promise<Response> {
    const access = options.tokens.access();
    const method = request.method ?? 'POST';
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (method === 'POST') headers['content-type'] = 'application/json';
    if (request.lastEventId) headers['last-event-id'] = request.lastEventId;
    if (access) headers.authorization = `Bearer ${access}`;
    // Network failures pass through as they are: thrownError() reads them as timeouts.
    const res = await doFetch(`${options.baseUrl}${path}`, {
      method,
      headers,
      ...(method === 'POST' ? { body: JSON.stringify(request.body) } : {}),
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
      return open(path, request, signal, true);
    }
    if (!res.ok) {
      const body = await bodyOf(res);
      throw new StreamResponseError(responseError(res.status, res.statusText, body), res.status, body);
    }
    return res;
  }

  /**
   * The events of one stream as parsed JSON with their ids, up to `data: [DONE]` or the end of the
   * body. Lines that are not JSON are skipped.
   */
  async function* events(
    path: string,
    request: StreamRequest,
    signal: AbortSignal,
  ): AsyncGenerator<StreamEvent> {
    let res: Response;
    try {
      res = await open(path, request, signal);
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
        yield message.id === undefined ? { data } : { id: message.id, data };
      }
    } catch (error) {
      if (isAbort(error) || signal.aborted) return;
      throw error;
    }
  }

  /** The events of one streaming POST, data only (the chat's use). */
  async function* stream(path: string, body: unknown, signal: AbortSignal): AsyncGenerator<unknown> {
    for await (const event of events(path, { method: 'POST', body }, signal)) yield event.data;
  }

  return { stream, events };
}

export type StreamClient = ReturnType<typeof createStreamClient>;
