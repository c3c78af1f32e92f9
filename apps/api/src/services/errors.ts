/** An error a person can act on: the API answers it as `{detail, code}` with `status`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    /** More fields of the answer beside detail and code (e.g. a flow's problems). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const notFound = (what: string) =>
  new AppError(404, 'not_found', `The ${what} was not found or is not visible to you.`);
export const forbidden = (detail = "You don't have permission to do this.") =>
  new AppError(403, 'forbidden', detail);
export const conflict = (code: string, detail: string) => new AppError(409, code, detail);
