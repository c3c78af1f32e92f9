import { embedSettingsAnswer, idParams, updateEmbedBody } from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BUILDERS, principalOf } from '../plugins/auth';
import { AUTHED, errorAnswers } from './responses';

const tags = ['embed'];
const builders = { access: { roles: BUILDERS } };

/** A chatbot's embeddable chat, managed by the builders of its workspace (see routes/embed-public.ts). */
const embedSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.embeds;

  app.get(
    '/chatbots/:id/embed',
    {
      config: builders,
      schema: {
        tags,
        summary: "A chatbot's embed settings: on or off, allowed origins, public token and snippet URLs",
        description: 'Made on first read: off, with no allowed origin and a new token.',
        params: idParams,
        response: { 200: embedSettingsAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ embed: await service.get(principalOf(request), request.params.id) }),
  );

  app.put(
    '/chatbots/:id/embed',
    {
      config: builders,
      schema: {
        tags,
        summary: 'Turn the embed on or off, set its allowed origins, greeting and placeholder',
        description:
          'Allowed origins are exact (`https://shop.example.com`: scheme, host, optional port). Turning the embed on needs at least one (422 `embed_origins_required`); a workflow cannot be embedded (422 `wrong_chatbot_type`).',
        params: idParams,
        body: updateEmbedBody,
        response: { 200: embedSettingsAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({
      embed: await service.update(principalOf(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/chatbots/:id/embed/token',
    {
      config: builders,
      schema: {
        tags,
        summary: 'Replace the public embed token: pages carrying the old one stop working at once',
        params: idParams,
        response: { 200: embedSettingsAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ embed: await service.regenerate(principalOf(request), request.params.id) }),
  );
};

export default embedSettingsRoutes;
