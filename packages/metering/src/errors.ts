/** A refusal of the metering layer, with the HTTP status and code the API answers with. */
export class MeteringError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'MeteringError';
  }
}
