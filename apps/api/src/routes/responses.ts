import { errorBody } from '@atelier/schemas';

/** Declares the error answers a route may give, for the OpenAPI document. */
export function errorAnswers(...statuses: number[]) {
  return Object.fromEntries(statuses.map((s) => [s, errorBody])) as Record<number, typeof errorBody>;
}

/** What every authenticated route may answer besides its success. */
export const AUTHED = [401, 403, 422] as const;
