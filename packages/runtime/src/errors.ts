/**
 * A refusal or failure of the runtime in words a person can act on; the API answers it as
 * `{detail, code}` with `status`.
 */
export class RuntimeError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'RuntimeError';
  }
}
