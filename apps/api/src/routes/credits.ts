import { creditPlan, creditUsage } from '@atelier/schemas';
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

  app.get(
    '/credits/usage',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags: ['credits'],
        summary: 'Credits used over the last 30 days and their daily average (for the runway)',
        response: { 200: creditUsage, ...errorAnswers(...AUTHED) },
      },
    },
    async (request) => app.services.credits.usage(principalOf(request).organizationId),
  );
};

export default creditsRoutes;
