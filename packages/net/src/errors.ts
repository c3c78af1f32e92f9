/** What went wrong with an outbound request, in words a person can act on. */
export type NetErrorCode =
  | 'invalid_url'
  | 'unsafe_url'
  | 'unresolvable_url'
  | 'unsafe_redirect'
  | 'too_many_redirects'
  | 'request_timeout'
  | 'request_failed'
  | 'response_too_large'
  | 'cancelled';

/**
 * The one error of this package: `status` is what an API answers with, `code` is stable, `detail` is a
 * sentence a person can act on. `reason` is the low-level cause (ECONNREFUSED…), when there is one.
 */
export class NetError extends Error {
  constructor(
    readonly status: number,
    readonly code: NetErrorCode,
    readonly detail: string,
    readonly reason?: string,
  ) {
    super(detail);
    this.name = 'NetError';
  }
}

export const isNetError = (error: unknown): error is NetError => error instanceof NetError;
