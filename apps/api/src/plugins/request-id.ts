import { requestIdFrom } from '@atelier/telemetry';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * The Fastify options that make `request.id` the client's `X-Request-Id` when it is sane (at most 128
 * printable characters, no spaces: see @atelier/telemetry's context.ts), a new UUID otherwise. Fastify
 * binds it as `reqId` to every log line of the request.
 */
export const requestIdOptions: Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader'> = {
  requestIdHeader: false,
  genReqId: (req) => requestIdFrom(req.headers[REQUEST_ID_HEADER]),
};

/** Every answer carries the request's id (streams too: their headers are copied from the reply). */
export default fp(
  async function requestId(app: FastifyInstance) {
    app.addHook('onRequest', async (request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
    });
    // Answers made before onRequest (a malformed URL, a 404) get it here.
    app.addHook('onSend', async (request, reply) => {
      if (!reply.hasHeader(REQUEST_ID_HEADER)) reply.header(REQUEST_ID_HEADER, request.id);
    });
  },
  { name: 'request-id' },
);
