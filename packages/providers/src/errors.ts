import { NetError } from '@atelier/net';
/** What went wrong at a provider, in words a person can act on; the API answers it as `{detail, code}`. */
export type ProviderErrorCode =
  | 'bad_credentials'
  | 'model_not_found'
  | 'rate_limited'
  | 'timeout'
  | 'provider_unreachable'
  | 'provider_error'
  | 'bad_request'
  | 'unsupported'
  | 'cancelled'
  | 'unsafe_url'
  | 'unsafe_redirect';

const STATUS: Record<ProviderErrorCode, number> = {
  bad_credentials: 502,
  model_not_found: 502,
  rate_limited: 429,
  timeout: 504,
  provider_unreachable: 502,
  provider_error: 502,
  bad_request: 422,
  unsupported: 422,
  cancelled: 499,
  unsafe_url: 422,
  unsafe_redirect: 502,
};

export class ProviderError extends Error {
  readonly status: number;
  constructor(
    readonly code: ProviderErrorCode,
    readonly detail: string,
    readonly retryable = false,
  ) {
    super(detail);
    this.name = 'ProviderError';
    this.status = STATUS[code];
  }
}

/** Maps an HTTP status and the provider's own message to our codes. */
export function fromHttpStatus(status: number, message: string, model?: string): ProviderError {
  const said = message ? ` The provider said: ${message}` : '';
  if (status === 401 || status === 403) {
    return new ProviderError(
      'bad_credentials',
      `The provider refused the credentials; check the API key.${said}`,
    );
  }
  if (status === 404) {
    return new ProviderError(
      'model_not_found',
      `The provider does not know the model${model ? ` "${model}"` : ''}.${said}`,
    );
  }
  if (status === 429)
    return new ProviderError(
      'rate_limited',
      `The provider is rate limiting requests; try again shortly.${said}`,
      true,
    );
  if (status === 408) return new ProviderError('timeout', `The provider timed out.${said}`, true);
  if (status >= 500)
    return new ProviderError('provider_error', `The provider failed (HTTP ${status}).${said}`, true);
  return new ProviderError('bad_request', `The provider rejected the request (HTTP ${status}).${said}`);
}

export const timeoutError = (ms: number) =>
  new ProviderError('timeout', `The provider did not answer within ${Math.round(ms / 1000)} seconds.`, true);
export const cancelledError = () => new ProviderError('cancelled', 'The call was cancelled.');
export const unreachable = (reason: string) =>
  new ProviderError(
    'provider_unreachable',
    `The provider could not be reached (${reason}). Check its base URL.`,
    true,
  );

/** The guarded HTTP client's refusals and failures, in provider words. */
export function fromNetError(error: NetError, timeoutMs: number): ProviderError {
  switch (error.code) {
    case 'cancelled':
      return cancelledError();
    case 'request_timeout':
      return timeoutError(timeoutMs);
    case 'request_failed':
      return unreachable(error.reason ?? error.detail);
    case 'unresolvable_url':
      return new ProviderError('provider_unreachable', `${error.detail} Check its base URL.`, true);
    case 'invalid_url':
    case 'unsafe_url':
      return new ProviderError('unsafe_url', error.detail);
    case 'unsafe_redirect':
      return new ProviderError(
        'unsafe_redirect',
        `${error.detail} Point the base URL at the provider's final address instead.`,
      );
    default:
      return new ProviderError('provider_error', error.detail);
  }
}

/** A NetError (also as the cause of another error, as the OpenAI SDK wraps them), or null. */
export function netErrorIn(error: unknown): NetError | null {
  if (error instanceof NetError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof NetError ? cause : null;
}
