import { AsyncResource } from 'node:async_hooks';
import {
  context,
  extractTraceContext,
  SpanKind,
  SpanStatusCode,
  tracer,
  trace,
  withLogContext,
  type Span,
} from '@atelier/telemetry';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const scope = Symbol('atelier.requestScope');

declare module 'fastify' {
  interface FastifyRequest {
    [scope]?: AsyncResource;
  }
}

/** The route pattern (`/chatbots/:id/runs`), never the raw URL; `unmatched` for a 404. */
export function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

/**
 * The request's context: its log fields (the request id, for the runs it starts and for lines written
 * outside Fastify's request logger) and its server span (a child of the caller's `traceparent` when one
 * came). The handler runs inside both: the body is parsed on socket events that lose the context, so
 * the scope is entered again before the handler. The span ends when the answer is done or cut.
 */
export default fp(
  async function tracing(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      const parent = extractTraceContext(request.headers);
      const route = routeOf(request);
      const span: Span = tracer.startSpan(
        `${request.method} ${route}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': request.method,
            'http.route': route,
            'atelier.request_id': request.id,
          },
        },
        parent,
      );
      reply.raw.once('close', () => {
        const status = reply.raw.statusCode;
        span.setAttribute('http.response.status_code', status);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        if (!reply.raw.writableFinished) span.setAttribute('atelier.client_left', true);
        span.end();
      });
      context.with(trace.setSpan(parent, span), () =>
        withLogContext({ requestId: request.id }, () => {
          request[scope] = new AsyncResource('atelier-request');
          done();
        }),
      );
    });
    app.addHook('preHandler', (request, _reply, done) => {
      const resource = request[scope];
      if (resource) resource.runInAsyncScope(done);
      else done();
    });
  },
  { name: 'tracing' },
);
