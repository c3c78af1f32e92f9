import { bounded, enableProcessMetrics, metrics } from '@atelier/telemetry';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { routeOf } from './tracing';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * HTTP metrics: every request by method, route pattern and status, when its answer is done or cut (a
 * client that left before any answer counts as 499). The process's metrics are served by
 * routes/metrics.ts.
 */
export default fp(
  async function metricsPlugin(app: FastifyInstance) {
    enableProcessMetrics();
    app.addHook('onRequest', async (request, reply) => {
      const started = performance.now();
      reply.raw.once('close', () => {
        const status = reply.raw.headersSent ? reply.raw.statusCode : 499;
        metrics.httpRequestDuration.observe(
          { method: bounded(request.method, METHODS), route: routeOf(request), status_code: String(status) },
          (performance.now() - started) / 1000,
        );
      });
    });
  },
  { name: 'metrics' },
);
