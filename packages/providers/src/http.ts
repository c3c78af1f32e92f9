import { createGuardedFetch, type UrlPolicy } from '@atelier/net';
import {
  cancelledError,
  fromHttpStatus,
  fromNetError,
  netErrorIn,
  timeoutError,
  unreachable,
} from './errors';
import { withRetry } from './retry';

export interface HttpOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  retries: number;
  signal?: AbortSignal | undefined;
  /** Named in "model not found" errors. */
  model?: string;
  /** What the request (and its redirects) may reach: the provider's URL policy. */
  policy: UrlPolicy;
}

export function providerMessage(body: unknown): string {
  const b = body as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown } | null;
  if (typeof b?.error === 'string') return b.error;
  const candidates = [b?.error?.message, b?.message, b?.detail];
  return String(candidates.find((c) => typeof c === 'string') ?? '').slice(0, 300);
}

/**
 * One HTTP call to a provider's documented API, on the guarded client (the provider URL policy checks
 * every hop): a timeout, the caller's cancellation, retries on 429/5xx, and failures mapped to
 * ProviderError. Answers the successful Response (body unread).
 */
export async function providerFetch(url: string, options: HttpOptions): Promise<Response> {
  return withRetry(
    async () => {
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      let res: Response;
      try {
        const isJson = options.body !== undefined && !(options.body instanceof FormData);
        res = await createGuardedFetch(options.policy, { what: 'The provider URL' })(url, {
          method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
          headers: { ...(isJson ? { 'content-type': 'application/json' } : {}), ...options.headers },
          body:
            options.body === undefined
              ? null
              : isJson
                ? JSON.stringify(options.body)
                : (options.body as FormData),
          signal,
        });
      } catch (error) {
        if (options.signal?.aborted) throw cancelledError();
        if (timeout.aborted) throw timeoutError(options.timeoutMs);
        const refused = netErrorIn(error);
        if (refused) throw fromNetError(refused, options.timeoutMs);
        throw unreachable(
          (error as Error).cause ? String((error as { cause: unknown }).cause) : (error as Error).message,
        );
      }
      if (!res.ok) {
        const body: unknown = await res.json().catch(() => null);
        throw fromHttpStatus(res.status, providerMessage(body), options.model);
      }
      return res;
    },
    { retries: options.retries, signal: options.signal },
  );
}

export async function providerJson<T>(url: string, options: HttpOptions): Promise<T> {
  return (await (await providerFetch(url, options)).json()) as T;
}
