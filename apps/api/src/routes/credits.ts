import { creditPlan } from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ALL_ROLES, principalOf } from '../plugins/auth';
import { AUTHED, errorAnswers } from './responses';

const creditsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/credits/plan',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags: ['credits'],
        summary: "The organization's credit plan and what remains of it",
        response: { 200: creditPlan, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => app.services.credits.getPlan(principalOf(request).organizationId),
  );
};

export default creditsRoutes;
