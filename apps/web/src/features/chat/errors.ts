import type { ValidationProblem } from '@atelier/schemas';
import type { TFunction } from 'i18next';
import { problemText } from '@/lib/error-text';

/**
 * An error to show: a translation key (with its values), or the server's own sentence (`detail`)
 * which then replaces it. `timeout` errors show the timeout notice with Retry.
 */
export interface ChatError {
  key: string;
  params?: Record<string, string | number>;
  detail?: string;
  status?: number;
  timeout?: boolean;
}

export const chatErrorText = (t: TFunction, error: ChatError): string =>
  error.detail || t(error.key, error.params ?? {});

/** Thrown by the stream client and the event handlers; carries what the message will show. */
export class StreamError extends Error {
  constructor(readonly info: ChatError) {
    super(info.detail ?? info.key);
    this.name = 'StreamError';
  }
}

export const isAbort = (error: unknown): boolean =>
  (error instanceof DOMException || error instanceof Error) && error.name === 'AbortError';

/** A 504 answer. */
export const TIMEOUT_ERROR: ChatError = { key: 'chatPage.errors.timeout', status: 504, timeout: true };
/** The connection broke or the request timed out while the answer was produced. */
export const PROCESSING_TIMEOUT: ChatError = {
  key: 'chatPage.errors.processingTimeout',
  status: 504,
  timeout: true,
};

/** A non-2xx answer to the streaming POST: its `detail` when it has one, else status and text. */
export function responseError(status: number, statusText: string, body: unknown): ChatError {
  if (status === 504) return TIMEOUT_ERROR;
  // A refused request named field by field is said in the reader's language.
  const problems = (body as { errors?: unknown } | null)?.errors;
  const detail = Array.isArray(problems)
    ? problems.map((p) => problemText(p as ValidationProblem)).join(' ')
    : (body as { detail?: unknown } | null)?.detail;
  return {
    key: 'chatPage.errors.sseFailed',
    params: { status, text: statusText },
    status,
    ...(typeof detail === 'string' && detail ? { detail } : {}),
  };
}

const TIMEOUT_LIKE = /network|chunked|failed to fetch|load failed|input stream|timeout|timed out/i;

/**
 * A thrown error: network and chunked-encoding failures, 'Failed to fetch' and anything about a
 * timeout count as a timeout during processing; a user abort gives null (it ends quietly).
 */
export function thrownError(error: unknown, type: string): ChatError | null {
  if (isAbort(error)) return null;
  if (error instanceof StreamError) return error.info;
  const message = error instanceof Error ? error.message : String(error);
  if (TIMEOUT_LIKE.test(message)) return PROCESSING_TIMEOUT;
  return { key: 'chatPage.errors.sendFailed', params: { type } };
}

/** The inference-error marker of the simple stream; status 504 means it timed out. */
export function inferenceError(event: { message?: string; status?: number }): ChatError {
  if (event.status === 504) return TIMEOUT_ERROR;
  return {
    key: 'chatPage.errors.inference',
    ...(event.status ? { status: event.status } : {}),
    ...(event.message ? { detail: event.message } : {}),
  };
}

/** An execution_error event: `error` as a string or an object with a message. */
export function executionError(event: Record<string, unknown>): ChatError {
  const error = event.error;
  const message =
    typeof error === 'string'
      ? error
      : typeof (error as { message?: unknown } | null)?.message === 'string'
        ? (error as { message: string }).message
        : typeof event.message === 'string'
          ? event.message
          : '';
  return { key: 'chatPage.errors.execution', ...(message.trim() ? { detail: message } : {}) };
}

export const NULL_BODY: ChatError = { key: 'chatPage.errors.noBody' };
export const SESSION_LOST: ChatError = { key: 'chatPage.errors.sessionLost', status: 401 };
