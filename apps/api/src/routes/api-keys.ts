import { apiKeyParams, apiKeysAnswer, createApiKeyBody, createdApiKey, idParams } from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BUILDERS, principalOf } from '../plugins/auth';
import { AUTHED, errorAnswers } from './responses';

const tags = ['api-keys'];
const builders = { access: { roles: BUILDERS } };

/** A chatbot's API keys, managed by the builders of its workspace (the key is shown once). */
const apiKeysRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.apiKeys;

  app.get(
    '/chatbots/:id/api_keys',
    {
      config: builders,
      schema: {
        tags,
        summary: "A chatbot's API keys (never the keys themselves), newest first",
        params: idParams,
        response: { 200: apiKeysAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ api_keys: await service.list(principalOf(request), request.params.id) }),
  );

  app.post(
    '/chatbots/:id/api_keys',
    {
      config: builders,
      schema: {
        tags,
        summary: 'Create an API key for a chatbot; the answer is the only time the key is shown',
        params: idParams,
        body: createApiKeyBody,
        response: { 201: createdApiKey, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.create(principalOf(request), request.params.id, request.body.name)),
  );

  app.delete(
    '/chatbots/:id/api_keys/:key_id',
    {
      config: builders,
      schema: {
        tags,
        summary: 'Revoke an API key: it is refused from now on',
        params: apiKeyParams,
        response: { 204: z.null().describe('Revoked.'), ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request, reply) => {
      await service.revoke(principalOf(request), request.params.id, request.params.key_id);
      return reply.status(204).send(null);
    },
  );
};

export default apiKeysRoutes;
