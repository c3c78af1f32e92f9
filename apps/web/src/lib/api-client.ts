import type { ValidationProblem } from '@atelier/schemas';
import { apiErrorText } from './error-text';
import type { TokenStore } from './tokens';

export const TOKEN_REFRESHED = 'tokenRefreshed';
export const TOKEN_REFRESH_FAIL = 'tokenRefreshFail';

/** An API answer that is not a success, with the server's `{detail, code}` when it gave one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    /** The whole answer body when it was JSON (e.g. a flow's `problems` with a 422). */
    readonly body: unknown = null,
    /** A failed validation's problems, field by field (`errors` of a 422 `validation_error`). */
    readonly problems: readonly ValidationProblem[] = [],
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  tokens: TokenStore;
  /** Called when the session is gone (no refresh token, or the refresh failed): go to /login. */
  onAuthLost(): void;
  events?: EventTarget;
  fetch?: typeof fetch;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface RequestOptions {
  body?: unknown;
  /** Public calls (login, refresh, reset, onboarding) carry no bearer header. */
  auth?: boolean;
  signal?: AbortSignal;
}

async function toError(res: Response): Promise<ApiError> {
  let body: { detail?: unknown; code?: unknown; errors?: unknown } | null = null;
  try {
    body = (await res.json()) as { detail?: unknown; code?: unknown; errors?: unknown };
  } catch {
    // not JSON: keep the status text
  }
  const detail = typeof body?.detail === 'string' ? body.detail : `${res.status} ${res.statusText}`.trim();
  const code = typeof body?.code === 'string' ? body.code : `http_${res.status}`;
  const problems = Array.isArray(body?.errors) ? (body.errors as ValidationProblem[]) : [];
  return new ApiError(res.status, code, detail, body, problems);
}

/**
 * The one way the web app talks to the API. A 401 on a request not yet retried triggers one refresh
 * with the stored refresh token (concurrent 401s share it); on success the tokens are stored, a
 * token-refreshed event is broadcast and the request is repeated once; on failure the tokens are
 * cleared, refresh-failed is broadcast and the session is lost. Other errors pass through unchanged.
 */
export function createApiClient(options: ApiClientOptions) {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const events = options.events ?? window;
  let refreshing: Promise<void> | null = null;

  function lose(event: string | null, error: ApiError): never {
    options.tokens.clear();
    if (event) events.dispatchEvent(new Event(event));
    options.onAuthLost();
    throw error;
  }

  async function refreshOnce(): Promise<void> {
    const refreshToken = options.tokens.refresh();
    if (!refreshToken) {
      lose(null, new ApiError(401, 'no_refresh_token', 'No refresh token available. Please log in.'));
    }
    let res: Response;
    try {
      res = await doFetch(`${options.baseUrl}/token/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: refreshToken }),
      });
    } catch {
      return lose(
        TOKEN_REFRESH_FAIL,
        new ApiError(401, 'refresh_failed', 'Token refresh failed. Please log in again.'),
      );
    }
    if (!res.ok) {
      lose(
        TOKEN_REFRESH_FAIL,
        new ApiError(401, 'refresh_failed', 'Token refresh failed. Please log in again.'),
      );
    }
    options.tokens.set((await res.json()) as { access_token: string; refresh_token: string });
    events.dispatchEvent(new Event(TOKEN_REFRESHED));
  }

  /** Shared by every request that meets a 401 while it runs. */
  function refresh(): Promise<void> {
    refreshing ??= refreshOnce().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function request<T>(
    method: Method,
    path: string,
    opts: RequestOptions = {},
    retried = false,
  ): Promise<T> {
    const auth = opts.auth ?? true;
    const headers: Record<string, string> = {};
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const access = auth ? options.tokens.access() : null;
    if (access) headers.authorization = `Bearer ${access}`;
    let res: Response;
    try {
      res = await doFetch(`${options.baseUrl}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? null : JSON.stringify(opts.body),
        signal: opts.signal ?? null,
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ApiError(0, 'network_error', 'Failed to communicate with the server');
    }
    if (res.status === 401 && auth && !retried) {
      await refresh();
      return request<T>(method, path, opts, true);
    }
    if (!res.ok) throw await toError(res);
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    request,
    /** The one shared refresh; the streaming client uses it too, so a rotated token is never replayed. */
    refresh,
    get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
    post: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('POST', path, { ...opts, body }),
    put: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('PUT', path, { ...opts, body }),
    patch: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('PATCH', path, { ...opts, body }),
    del: <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * The sentence to show for a failed call, in the reader's language where the code or the fields say
 * what went wrong (see `apiErrorText`), else the API's detail; the fallback for anything else.
 */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return apiErrorText(error) || fallback;
  return fallback;
}
