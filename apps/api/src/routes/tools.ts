import {
  createToolAnswer,
  createToolBody,
  idParams,
  messageBody,
  toolAnswer,
  toolsAnswer,
  toolTypesAnswer,
  updateToolBody,
  workspaceQuery,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BUILDERS, principalOf } from '../plugins/auth';
import { AUTHED, errorAnswers } from './responses';

const tags = ['knowledge'];
const access = { roles: BUILDERS };

const toolsRoutes: FastifyPluginAsyncZod = async (app) => {
  const knowledge = app.services.knowledge;
  const service = knowledge.tools;

  app.get(
    '/tools/types',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Types of tools (Figma, Jira, Notion, GitBook) and their settings',
        response: { 200: toolTypesAnswer, ...errorAnswers(...AUTHED) },
      },
    },
    async () => ({ data: [...service.types()] }),
  );

  app.get(
    '/tools',
    {
      config: { access },
      schema: {
        tags,
        summary: "A workspace's stored tools (secrets never returned, only a hint)",
        querystring: workspaceQuery,
        response: { 200: toolsAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ data: await service.list(principalOf(request), request.query.workspace_id) }),
  );

  app.get(
    '/tools/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'A stored tool',
        params: idParams,
        response: { 200: toolAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ data: await service.get(principalOf(request), request.params.id) }),
  );

  app.post(
    '/tools',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Store a tool configuration nodes reference by toolId; its secret is encrypted at rest',
        body: createToolBody,
        response: { 201: createToolAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ tool_id: await service.create(principalOf(request), request.body) }),
  );

  app.put(
    '/tools/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Update a stored tool (a secret left out keeps the stored one)',
        params: idParams,
        body: updateToolBody,
        response: { 200: toolAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({
      data: await service.update(principalOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/tools/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Delete a stored tool',
        params: idParams,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await service.remove(principalOf(request), request.params.id);
      return { message: 'Tool deleted' };
    },
  );
};

export default toolsRoutes;
