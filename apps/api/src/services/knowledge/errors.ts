import { KnowledgeError } from '@atelier/knowledge';
import { NetError } from '@atelier/net';
import { AppError } from '../errors';

/** A store's or the SSRF guard's error as the API answers it (`{detail, code}` with its status). */
export function asAppError(error: unknown): unknown {
  if (error instanceof KnowledgeError || error instanceof NetError) {
    return new AppError(error.status, error.code, error.detail);
  }
  return error;
}

/**
 * Runs `work`, its known errors turned into AppErrors; with `remote` (an external store), any other
 * error (a refused connection, bad credentials) is answered 502 without the driver's wording.
 */
export async function mapped<T>(work: () => Promise<T>, remote = false): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const known = asAppError(error);
    if (remote && !(known instanceof AppError)) {
      throw new AppError(
        502,
        'connector_unreachable',
        'The connector could not be reached or refused the request: check its URL and credentials.',
      );
    }
    throw known;
  }
}

/** Refuses to wait longer than `ms` for a remote store (504 connector_timeout). */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new AppError(504, 'connector_timeout', `${what} did not answer within ${ms / 1000} s.`)),
      ms,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === '23505' || e?.cause?.code === '23505';
}
