import {
  modelTypes,
  createModelBody,
  idParams,
  invokeModelAnswer,
  invokeModelBody,
  messageBody,
  modelAnswer,
  modelsAnswer,
  modelsQuery,
  modelTypesAnswer,
  updateModelBody,
  workspaceQuery,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALL_ROLES, BUILDERS, principalOf } from '../plugins/auth';
import { assertImageLimits, uploadBodyLimit } from '../plugins/body-limits';
import { AUTHED, errorAnswers } from './responses';

const tags = ['models'];
const LABELS: Record<(typeof modelTypes)[number], string> = {
  llm: 'LLM',
  'llm-multimodal': 'Multimodal LLM',
  ocr: 'OCR',
  'text-to-image': 'Text to image',
  'text-to-video': 'Text to video',
  'speech-to-text': 'Speech to text',
  'text-to-speech': 'Text to speech',
  'text-embeddings': 'Text embeddings',
  rerank: 'Rerank',
};

const modelsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.models;

  app.get(
    '/models/types',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'The nine model types',
        response: { 200: modelTypesAnswer, ...errorAnswers(...AUTHED) },
      },
    },
    async () => ({ data: modelTypes.map((id) => ({ id, label: LABELS[id] })) }),
  );

  app.get(
    '/models_with_partial_server',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: "A workspace's models with their provider (no secrets); filter with repeated model_types",
        querystring: modelsQuery,
        response: { 200: modelsAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({
      models: await service.list(principalOf(request), request.query.workspace_id, request.query.model_types),
    }),
  );

  app.get(
    '/models_embeddings',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: "A workspace's embedding models",
        querystring: workspaceQuery,
        response: { 200: modelsAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({
      models: await service.list(principalOf(request), request.query.workspace_id, ['text-embeddings']),
    }),
  );

  app.get(
    '/models/:id',
    {
      config: { access: { roles: ALL_ROLES } },
      schema: {
        tags,
        summary: 'A model with its provider',
        params: idParams,
        response: { 200: modelAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ model: await service.get(principalOf(request), request.params.id) }),
  );

  app.post(
    '/models',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: 'Add a model of a provider, with its prices in credits',
        body: createModelBody,
        response: { 201: z.object({ model_id: z.string() }), ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ model_id: await service.create(principalOf(request), request.body) }),
  );

  app.put(
    '/models/:id',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: 'Update a model',
        params: idParams,
        body: updateModelBody,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await service.update(principalOf(request), request.params.id, request.body);
      return { message: 'Model updated' };
    },
  );

  app.delete(
    '/models/:id',
    {
      config: { access: { roles: BUILDERS } },
      schema: {
        tags,
        summary: 'Delete a model',
        params: idParams,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await service.remove(principalOf(request), request.params.id);
      return { message: 'Model deleted' };
    },
  );

  app.post(
    '/models/:id/invoke',
    {
      config: { access: { roles: BUILDERS }, rateLimitPreset: 'invoke' },
      // Prompts and images as for a chat message; audio to transcribe fits in the same room (≈ 20 MiB).
      bodyLimit: uploadBodyLimit(app.config.images),
      schema: {
        tags,
        summary:
          'Call a model once (metered; 402 when no credits are left); the input fields depend on its type',
        params: idParams,
        body: invokeModelBody,
        response: { 200: invokeModelAnswer, ...errorAnswers(...AUTHED, 402, 404, 413, 429, 502, 504) },
      },
    },
    async (request, reply) => {
      const { images = [], image } = request.body;
      assertImageLimits(image === undefined ? images : [...images, image], app.config.images);
      // A client that leaves before the answer is written cancels the provider call.
      const controller = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      return app.services.invoke.invoke(
        principalOf(request),
        request.params.id,
        request.body,
        controller.signal,
      );
    },
  );
};

export default modelsRoutes;
