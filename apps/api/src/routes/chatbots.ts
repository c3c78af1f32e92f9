import {
  chatbotAnswer,
  chatbotConfigAnswer,
  chatbotsAnswer,
  chatbotsQuery,
  chatbotUserParams,
  chatbotUsersAnswer,
  createChatbotBody,
  duplicateChatbotBody,
  flowConfigBody,
  flowErrorBody,
  idParams,
  messageBody,
  simpleConfigBody,
  updateChatbotBody,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALL_ROLES, BUILDERS, principalOf } from '../plugins/auth';
import { CONFIG_BODY_LIMIT } from '../plugins/body-limits';
import { AUTHED, errorAnswers } from './responses';

const tags = ['chatbots'];
const builders = { access: { roles: BUILDERS } };

const chatbotsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.chatbots;
  const ok = (message: string) => ({ message });

  app.get(
    '/chatbots',
    {
      config: builders,
      schema: {
        tags,
        summary: "A workspace's chatbots and workflows",
        querystring: chatbotsQuery,
        response: { 200: chatbotsAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ chatbots: await service.list(principalOf(request), request.query.workspace_id) }),
  );

  app.get(
    '/chatbots_for_user',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'The published chatbots I may chat with',
        response: { 200: chatbotsAnswer, ...errorAnswers(...AUTHED) },
      },
    },
    async (request) => ({ chatbots: await service.forUser(principalOf(request)) }),
  );

  app.get(
    '/chatbots/:id',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'A chatbot',
        params: idParams,
        response: { 200: chatbotAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ chatbot: await service.get(principalOf(request), request.params.id) }),
  );

  app.post(
    '/chatbots',
    {
      config: builders,
      schema: {
        tags,
        summary: 'Create a chatbot or workflow',
        body: createChatbotBody,
        response: { 201: z.object({ id: z.string() }), ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ id: await service.create(principalOf(request), request.body) }),
  );

  app.put(
    '/chatbots/:id',
    {
      config: builders,
      schema: {
        tags,
        summary: 'Rename or describe a chatbot',
        params: idParams,
        body: updateChatbotBody,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await service.update(principalOf(request), request.params.id, request.body);
      return ok('Chatbot updated');
    },
  );

  app.post(
    '/chatbots/:id/publish',
    {
      config: builders,
      schema: {
        tags,
        summary: 'Publish a chatbot',
        description: 'A chatflow or workflow is validated first; its problems are answered per node (422).',
        params: idParams,
        response: { 200: messageBody, ...errorAnswers(401, 403, 404), 422: flowErrorBody },
      },
    },
    async (request) => {
      await service.publish(principalOf(request), request.params.id);
      return ok('Chatbot published');
    },
  );

  app.post(
    '/chatbots/duplicate',
    {
      config: builders,
      schema: {
        tags,
        summary: "Duplicate a chatbot ('Copy of' its name unless new_name is given)",
        body: duplicateChatbotBody,
        response: { 201: z.object({ id: z.string() }), ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        id: await service.duplicate(principalOf(request), request.body.chatbot_id, request.body.new_name),
      }),
  );

  app.delete(
    '/delete_chatbot/:id',
    {
      config: builders,
      schema: {
        tags,
        summary: 'Delete a chatbot',
        params: idParams,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await service.remove(principalOf(request), request.params.id);
      return ok('Chatbot deleted');
    },
  );

  app.get(
    '/chatbots/:id/config',
    {
      config: builders,
      schema: {
        tags,
        summary: "A chatbot's configuration",
        params: idParams,
        response: { 200: chatbotConfigAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ config: await service.config(principalOf(request), request.params.id) }),
  );

  app.put(
    '/chatbots/:id/simple/config',
    {
      config: builders,
      bodyLimit: CONFIG_BODY_LIMIT,
      schema: {
        tags,
        summary: "Save a simple chatbot's settings",
        params: idParams,
        body: simpleConfigBody,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await service.saveSimpleConfig(principalOf(request), request.params.id, request.body);
      return ok('Configuration saved');
    },
  );

  app.put(
    '/chatbots/:id/chatflow/config',
    {
      config: builders,
      bodyLimit: CONFIG_BODY_LIMIT,
      schema: {
        tags,
        summary: "Save a chatflow's or a workflow's nodes and edges (a workflow uses this path too)",
        description:
          'Saves a draft as it is: the graph is checked (problems per node) when it is published or run. ' +
          'Only separator patterns the linear-time regex engine refuses are answered already (422, invalid_flow).',
        params: idParams,
        body: flowConfigBody,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404), 422: flowErrorBody },
      },
    },
    async (request) => {
      await service.saveFlowConfig(principalOf(request), request.params.id, request.body.configuration);
      return ok('Configuration saved');
    },
  );

  app.post(
    '/chatbots/:id/users/:userId/grant',
    {
      config: builders,
      schema: {
        tags,
        summary: 'Let a user chat with the chatbot',
        params: chatbotUserParams,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await service.grant(principalOf(request), request.params.id, request.params.userId);
      return ok('Access granted');
    },
  );

  app.delete(
    '/chatbots/:id/users/:userId/revoke',
    {
      config: builders,
      schema: {
        tags,
        summary: "Revoke a user's access",
        params: chatbotUserParams,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await service.revoke(principalOf(request), request.params.id, request.params.userId);
      return ok('Access revoked');
    },
  );

  app.get(
    '/chatbots/:id/users',
    {
      config: builders,
      schema: {
        tags,
        summary: 'Users granted access to the chatbot',
        params: idParams,
        response: { 200: chatbotUsersAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ user_ids: await service.grantedUsers(principalOf(request), request.params.id) }),
  );
};

export default chatbotsRoutes;
