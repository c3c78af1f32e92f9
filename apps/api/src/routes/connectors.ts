import {
  collectionMetadataAnswer,
  connectorAnswer,
  connectorCollectionParams,
  connectorCollectionsAnswer,
  connectorsAnswer,
  createConnectorBody,
  createdIdAnswer,
  idParams,
  messageBody,
  previewAnswer,
  previewQuery,
  supportedConnectorsAnswer,
  updateConnectorBody,
  workspaceQuery,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BUILDERS, principalOf } from '../plugins/auth';
import { SUPPORTED_CONNECTORS } from '../services/knowledge/catalog';
import { AUTHED, errorAnswers } from './responses';

const tags = ['knowledge'];
const access = { roles: BUILDERS };
/** Routes that reach an external store count against the provider-test budget. */
const remote = { access, rateLimitPreset: 'providerTest' as const };

const connectorsRoutes: FastifyPluginAsyncZod = async (app) => {
  const knowledge = app.services.knowledge;
  const service = knowledge.connectors;

  app.get(
    '/supported_connectors',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Kinds of connectors (built-in, PostgreSQL with pgvector, Qdrant) and their settings',
        response: { 200: supportedConnectorsAnswer, ...errorAnswers(...AUTHED) },
      },
    },
    async () => ({ connectors: [...SUPPORTED_CONNECTORS] }),
  );

  app.get(
    '/connectors',
    {
      config: { access },
      schema: {
        tags,
        summary: "A workspace's connectors, its built-in store first (secrets never returned, only a hint)",
        querystring: workspaceQuery,
        response: { 200: connectorsAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ connectors: await service.list(principalOf(request), request.query.workspace_id) }),
  );

  app.get(
    '/connectors/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'A connector',
        params: idParams,
        response: { 200: connectorAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ connector: await service.get(principalOf(request), request.params.id) }),
  );

  app.post(
    '/connectors',
    {
      config: { access },
      schema: {
        tags,
        summary:
          'Add a connector; its URL is checked against the URL policy and its secret (URL credentials, API key) encrypted at rest',
        body: createConnectorBody,
        response: { 201: createdIdAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ id: await service.create(principalOf(request), request.body) }),
  );

  app.put(
    '/connectors/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Update a connector (a secret left out keeps the stored one; the built-in store: 409)',
        params: idParams,
        body: updateConnectorBody,
        response: { 200: connectorAnswer, ...errorAnswers(...AUTHED, 404, 409) },
      },
    },
    async (request) => ({
      connector: await service.update(principalOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/connectors/:id',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Delete a connector no RAG collection uses (the built-in store: 409)',
        params: idParams,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404, 409) },
      },
    },
    async (request) => {
      await service.remove(principalOf(request), request.params.id);
      return { message: 'Connector deleted' };
    },
  );

  app.post(
    '/connectors/:id/test',
    {
      config: remote,
      schema: {
        tags,
        summary: 'Test a connector: list its collections within 10 seconds',
        params: idParams,
        response: {
          200: z.object({ ok: z.boolean(), detail: z.string(), collections: z.number().int() }),
          ...errorAnswers(...AUTHED, 404, 429),
        },
      },
    },
    async (request) => service.test(principalOf(request), request.params.id),
  );

  app.get(
    '/connectors/:id/collections',
    {
      config: remote,
      schema: {
        tags,
        summary: "The connector's collections (the built-in store: only this workspace's)",
        params: idParams,
        response: { 200: connectorCollectionsAnswer, ...errorAnswers(...AUTHED, 404, 429, 502, 504) },
      },
    },
    async (request) => ({ collections: await service.collections(principalOf(request), request.params.id) }),
  );

  app.get(
    '/connectors/:id/collections/:name/metadata',
    {
      config: remote,
      schema: {
        tags,
        summary: "A collection's dimension, distance, size and metadata keys",
        params: connectorCollectionParams,
        response: { 200: collectionMetadataAnswer, ...errorAnswers(...AUTHED, 404, 429, 502, 504) },
      },
    },
    async (request) => service.metadata(principalOf(request), request.params.id, request.params.name),
  );

  app.get(
    '/connectors/:id/collections/:name/preview',
    {
      config: remote,
      schema: {
        tags,
        summary: "A page of a collection's rows (limit 10, offset 0 by default)",
        params: connectorCollectionParams,
        querystring: previewQuery,
        response: { 200: previewAnswer, ...errorAnswers(...AUTHED, 404, 429, 502, 504) },
      },
    },
    async (request) =>
      service.preview(principalOf(request), request.params.id, request.params.name, request.query),
  );
};

export default connectorsRoutes;
