import { canReadMetrics, metricsText } from '@atelier/telemetry';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../services/errors';

/**
 * `GET /metrics`: the process's registry in Prometheus's text format (see README, "Monitoring"). Open by
 * default like most exporters (it holds no id, name or content), behind a bearer token with
 * METRICS_TOKEN, absent with METRICS_ENABLED=false.
 */
const metricsRoutes: FastifyPluginAsync = async (app) => {
  const { enabled, token } = app.config.metrics;
  if (!enabled) return;
  app.get(
    '/metrics',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Prometheus metrics of this process (bearer METRICS_TOKEN when set)',
        security: [],
      },
    },
    async (request, reply) => {
      if (!canReadMetrics(request.headers.authorization, token)) {
        throw new AppError(401, 'invalid_token', 'The metrics need the bearer token set in METRICS_TOKEN.', {
          'www-authenticate': 'Bearer',
        });
      }
      const { body, contentType } = await metricsText();
      return reply.type(contentType).send(body);
    },
  );
};

export default metricsRoutes;
