import { pageViewBody } from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALL_ROLES, principalOf } from '../plugins/auth';
import { PAGE_VIEW_BODY_LIMIT } from '../plugins/body-limits';
import { AUTHED, errorAnswers } from './responses';

const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/analytics/page-views',
    {
      config: { access: { roles: ALL_ROLES }, rateLimitPreset: 'pageView' },
      bodyLimit: PAGE_VIEW_BODY_LIMIT,
      schema: {
        tags: ['analytics'],
        summary: 'Record a named page view (for example "Forbidden Page")',
        body: pageViewBody,
        response: { 204: z.null(), ...errorAnswers(...AUTHED, 429) },
      },
    },
    async (request, reply) => {
      await app.services.analytics.recordPageView(principalOf(request), request.body);
      return reply.status(204).send(null);
    },
  );
};

export default analyticsRoutes;
