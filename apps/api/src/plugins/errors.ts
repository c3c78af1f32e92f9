import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import fp from 'fastify-plugin';
import { ProviderError } from '@atelier/providers';
import { MeteringError } from '@atelier/metering';
import { RuntimeError } from '@atelier/runtime';
import { AppError } from '../services/errors';

function send(reply: FastifyReply, status: number, code: string, detail: string) {
  return reply.status(status).send({ detail, code });
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

/** Every error leaves the server as `{detail, code}` with a fitting status; nothing else leaks. */
export default fp(
  async function errors(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof AppError) {
        reply.headers(error.headers);
        return reply.status(error.status).send({ ...error.extra, detail: error.detail, code: error.code });
      }
      if (error instanceof RuntimeError || error instanceof MeteringError) {
        return send(reply, error.status, error.code, error.detail);
      }
      if (error instanceof ProviderError) {
        return send(reply, error.status, error.code, error.detail);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const where = error.validationContext ?? 'request';
        const problems = error.validation.map((v) => {
          const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
          const params = v.params as { issue?: { code?: string; keys?: string[] } } | undefined;
          if (params?.issue?.code === 'unrecognized_keys') {
            return `${where}: unknown field(s) ${params.issue.keys?.join(', ') ?? ''}`.trim();
          }
          return `${where}${path ? `.${path}` : ''}: ${v.message}`;
        });
        return send(reply, 422, 'validation_error', `Invalid request. ${problems.join('; ')}`);
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
