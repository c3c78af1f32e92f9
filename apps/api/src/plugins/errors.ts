import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import fp from 'fastify-plugin';
import { ProviderError } from '@atelier/providers';
import { MeteringError } from '@atelier/metering';
import { RuntimeError } from '@atelier/runtime';
import { AppError } from '../services/errors';
import { validationDetail, validationProblems } from './validation-problems';
import { UNAVAILABLE, unavailableDependency } from './unavailable';

/** What a 503 for a dependency out of reach tells the client to wait before trying again. */
const RETRY_AFTER_SECONDS = '5';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Errors also carry OpenAI's shape `{error: {message, type, code, param}}` (for OpenAI clients). */
    openAiErrors?: boolean;
  }
}

/** OpenAI's error `type` for a status, as its clients read it. */
function openAiType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** Every error's body: `{detail, code}`, with OpenAI's `error` beside them on the routes that ask. */
function errorBody(reply: FastifyReply, status: number, code: string, detail: string) {
  if (!reply.request.routeOptions.config?.openAiErrors) return { detail, code };
  return { detail, code, error: { message: detail, type: openAiType(status), code, param: null } };
}

function send(reply: FastifyReply, status: number, code: string, detail: string) {
  return reply.status(status).send(errorBody(reply, status, code, detail));
}

// Fastify's own errors, by code, answered with the right status and a sentence a person can act on.
const FASTIFY_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json', 'The request body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json', 'The request body is empty but JSON was announced.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'body_too_large', 'The request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    415,
    'unsupported_media_type',
    'Send the request body as application/json.',
  ],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    400,
    'invalid_content_length',
    'The Content-Length header does not match the body.',
  ],
};

/**
 * Errors Fastify raises before a route is found (a malformed or over-long URL), answered like the rest;
 * passed as the `frameworkErrors` option of the Fastify instance.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return send(reply, 414, 'uri_too_long', 'A part of the address is too long.');
  }
  return send(reply, 400, 'bad_url', 'The address of the request is not valid.');
}

/**
 * Every error leaves the server as `{detail, code}` with a fitting status; nothing else leaks. A failed
 * validation (422 `validation_error`) also lists its problems field by field in `errors`.
 */
export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) {
        reply.headers(error.headers);
        return reply
          .status(error.status)
          .send({ ...error.extra, ...errorBody(reply, error.status, error.code, error.detail) });
      }
      if (error instanceof RuntimeError || error instanceof MeteringError) {
        if (error.status === 503) reply.header('retry-after', RETRY_AFTER_SECONDS);
        return send(reply, error.status, error.code, error.detail);
      }
      // PostgreSQL or Redis out of reach: 503 with what is missing, and the call works again on its return.
      const down = unavailableDependency(error);
      if (down) {
        request.log.warn({ err: error }, `${down} unavailable`);
        const [code, detail] = UNAVAILABLE[down];
        reply.header('retry-after', RETRY_AFTER_SECONDS);
        return send(reply, 503, code, detail);
      }
      if (error instanceof ProviderError) {
        return send(reply, error.status, error.code, error.detail);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const problems = validationProblems(error.validationContext ?? 'request', error.validation);
        return reply.status(422).send({
          ...errorBody(reply, 422, 'validation_error', validationDetail(problems)),
          errors: problems,
        });
      }
      const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
      if (known) return send(reply, known[0], known[1], known[2]);
      if (error.statusCode === 429) {
        return send(reply, 429, 'rate_limited', 'Too many requests. Please wait and try again.');
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error }, 'answer did not match its schema');
      } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return send(reply, error.statusCode, 'bad_request', error.message);
      } else {
        request.log.error({ err: error }, 'unhandled error');
      }
      // Our bug, not the caller's: reported (when SENTRY_DSN is set) with the route pattern and request id.
      app.telemetry.reportError(error, {
        route: request.routeOptions.url ?? 'unmatched',
        request_id: request.id,
      });
      return send(reply, 500, 'internal_error', 'Something went wrong on our side. Please try again.');
    });

    app.setNotFoundHandler((request, reply) =>
      send(
        reply,
        404,
        'route_not_found',
        `There is no ${request.method} ${request.url.split('?')[0]} route.`,
      ),
    );
  },
  { name: 'errors' },
);
