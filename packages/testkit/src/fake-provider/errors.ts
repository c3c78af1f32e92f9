import type { ServerResponse } from 'node:http';
import type { Dialect } from './types';

export type ErrorKind = 'auth' | 'not-found' | 'rate-limit' | 'server' | 'invalid';

/** Thrown by handlers; the server renders it in the shape of the route's dialect. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly kind: ErrorKind,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export const invalid = (message: string): ApiError => new ApiError(400, 'invalid', message);

export const unauthorized = (dialect: Dialect): ApiError =>
  dialect === 'anthropic'
    ? new ApiError(401, 'auth', 'invalid x-api-key')
    : new ApiError(401, 'auth', 'Incorrect API key provided', 'invalid_api_key');

export const modelNotFound = (dialect: Dialect, model: string): ApiError =>
  dialect === 'anthropic'
    ? new ApiError(404, 'not-found', `model: ${model}`)
    : new ApiError(404, 'not-found', `The model \`${model}\` does not exist`, 'model_not_found');

export const rateLimited = (): ApiError =>
  new ApiError(429, 'rate-limit', 'Rate limit reached', 'rate_limit_exceeded');

export const serverError = (): ApiError => new ApiError(500, 'server', 'server error');

const OPENAI_TYPES: Record<ErrorKind, string> = {
  auth: 'invalid_request_error',
  'not-found': 'invalid_request_error',
  'rate-limit': 'requests',
  server: 'server_error',
  invalid: 'invalid_request_error',
};

const ANTHROPIC_TYPES: Record<ErrorKind, string> = {
  auth: 'authentication_error',
  'not-found': 'not_found_error',
  'rate-limit': 'rate_limit_error',
  server: 'api_error',
  invalid: 'invalid_request_error',
};

function errorBody(dialect: Dialect, error: ApiError): unknown {
  switch (dialect) {
    case 'anthropic':
      return { type: 'error', error: { type: ANTHROPIC_TYPES[error.kind], message: error.message } };
    case 'rerank': // Cohere answers { message }
      return { message: error.message };
    case 'public': // Ollama answers { error: string }
      return { error: error.message };
    default:
      return {
        error: { message: error.message, type: OPENAI_TYPES[error.kind], param: null, code: error.code },
      };
  }
}

export function sendError(res: ServerResponse, dialect: Dialect, error: ApiError): void {
  // retry-after: 0 lets clients exercise their retry path without slowing the test down.
  const retry = error.kind === 'rate-limit' ? { 'retry-after': '0' } : {};
  res.writeHead(error.status, { 'content-type': 'application/json', ...retry });
  res.end(JSON.stringify(errorBody(dialect, error)));
}
