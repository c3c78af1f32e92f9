import { PROVIDER_KINDS } from '@atelier/providers';
import {
  createProviderBody,
  idParams,
  messageBody,
  providerKindsAnswer,
  providersAnswer,
  providerTestAnswer,
  remoteModelsAnswer,
  updateProviderBody,
  workspaceQuery,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BUILDERS, principalOf } from '../plugins/auth';
import { AUTHED, errorAnswers } from './responses';

const tags = ['providers'];

const providersRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.providers;

  app.get(
    '/providers/kinds',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: 'Kinds of providers and what each needs',
        response: { 200: providerKindsAnswer, ...errorAnswers(...AUTHED) },
      },
    },
    async () => ({ kinds: Object.values(PROVIDER_KINDS) }),
  );

  app.get(
    '/providers',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: "A workspace's providers (credentials are never returned, only a masked hint)",
        querystring: workspaceQuery,
        response: { 200: providersAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ providers: await service.list(principalOf(request), request.query.workspace_id) }),
  );

  app.post(
    '/providers',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: 'Add a provider; its API key is encrypted at rest',
        body: createProviderBody,
        response: { 201: z.object({ provider_id: z.string() }), ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ provider_id: await service.create(principalOf(request), request.body) }),
  );

  app.put(
    '/providers/:id',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: 'Update a provider (omit api_key to keep the stored one)',
        params: idParams,
        body: updateProviderBody,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await service.update(principalOf(request), request.params.id, request.body);
      return { message: 'Provider updated' };
    },
  );

  app.delete(
    '/providers/:id',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: 'Delete a provider and its models',
        params: idParams,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await service.remove(principalOf(request), request.params.id);
      return { message: 'Provider deleted' };
    },
  );

  app.post(
    '/providers/:id/test',
    {
      config: { access: { roles: BUILDERS }, rateLimitPreset: 'providerTest' },
      schema: {
        tags,
        summary: 'Test the connection: reach the provider with its credentials',
        params: idParams,
        response: { 200: providerTestAnswer, ...errorAnswers(...AUTHED, 404, 429) },
      },
    },
    async (request) => service.test(principalOf(request), request.params.id),
  );

  app.get(
    '/providers/:id/remote-models',
    {
      config: { access: { roles: BUILDERS }, rateLimitPreset: 'providerTest' },
      schema: {
        tags,
        summary: "The provider's own list of models, for import",
        params: idParams,
        response: { 200: remoteModelsAnswer, ...errorAnswers(...AUTHED, 404, 429, 502, 504) },
      },
    },
    async (request) => ({ models: await service.remoteModels(principalOf(request), request.params.id) }),
  );
};

export default providersRoutes;
