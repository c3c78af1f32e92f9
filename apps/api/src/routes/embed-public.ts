import {
  embedConfig,
  embedConversationParams,
  embedConversationsAnswer,
  embedHistoryAnswer,
  embedMessageBody,
  embedTokenParams,
  embedUserQuery,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { embedCallerOf } from '../plugins/embed-access';
import { EMBED_RUN_EVENTS, relayRunEvents, streamAnswer } from '../plugins/sse';
import { AppError } from '../services/errors';
import { embedEndUserOf } from '../services/public-chat/end-user';
import { errorAnswers } from './responses';

const tags = ['embed'];
/** The embed token in the path is the caller; counted per browser first (a busy browser does not spend the token's budget), then per chatbot. */
const EMBED = { access: 'embed' as const, rateLimitPreset: ['embedBrowser', 'embed'] as const };
const EMBED_ERRORS = [403, 404, 409, 422, 429] as const;
const ORIGIN_NOTE =
  'No login: the embed token in the path is the caller. Pages of the allowed origins get CORS headers; any other Origin is refused with 403 `origin_not_allowed` (and no CORS header). `user` is the random id the browser keeps.';

/**
 * The embeddable chat's calls, made by the iframe page (`routes/embed-files.ts`) or by a page of an
 * allowed origin: the widget's configuration, a message with its answer streamed, and the browser's
 * own conversations. Every answer goes through `services/public-chat`, charged to the organization.
 */
const embedPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  const chat = app.services.publicChat;
  const endUser = (request: Parameters<typeof embedCallerOf>[0], browser: string) =>
    embedEndUserOf(embedCallerOf(request), browser);

  app.get(
    '/embed/:token/config',
    {
      config: EMBED,
      schema: {
        tags,
        summary: "The widget's configuration: the chatbot's name and type, greeting and placeholder",
        description: ORIGIN_NOTE,
        params: embedTokenParams,
        querystring: embedUserQuery,
        response: { 200: embedConfig, ...errorAnswers(...EMBED_ERRORS) },
      },
    },
    async (request) => {
      const bot = await chat.chatbot(endUser(request, request.query.user));
      if (bot.type === 'workflow') throw workflowRefused();
      const found = await app.services.embeds.find(request.params.token);
      return {
        chatbot: { name: bot.name, type: bot.type },
        greeting: found?.greeting ?? '',
        placeholder: found?.placeholder ?? '',
      };
    },
  );

  app.post(
    '/embed/:token/messages',
    {
      config: { ...EMBED, eventStream: 'always' },
      schema: {
        tags,
        summary: "Send the visitor's message; the answer streams as server-sent events",
        description: `${ORIGIN_NOTE} Without \`conversation_id\` a new conversation begins. A simple chatbot streams start (with conversation_id), sources, text (append), end or inference_error; a chatflow streams its run's answer: run_started with conversation_id, text, sources, then execution_completed with final_output or execution_error (its nodes' inputs and outputs are not shown). Ends with \`data: [DONE]\`.`,
        params: embedTokenParams,
        querystring: embedUserQuery,
        body: embedMessageBody,
        response: errorAnswers(...EMBED_ERRORS, 400, 402, 413),
      },
    },
    async (request, reply) => {
      const visitor = endUser(request, request.query.user);
      if ((await chat.chatbot(visitor)).type === 'workflow') throw workflowRefused();
      const turn = await chat.send(visitor, {
        conversationId: request.body.conversation_id,
        message: request.body.message,
      });
      if (turn.kind === 'flow') {
        return relayRunEvents(reply, {
          events: app.runtime.events,
          heartbeatMs: app.config.heartbeatMs,
          runId: turn.run.id,
          after: null,
          log: request.log,
          shown: EMBED_RUN_EVENTS,
        });
      }
      await streamAnswer(
        reply,
        { heartbeatMs: app.config.heartbeatMs, log: request.log, what: 'embed message' },
        (send, signal) => chat.streamSimple(turn.prepared, send, signal),
      );
    },
  );

  app.get(
    '/embed/:token/conversations',
    {
      config: EMBED,
      schema: {
        tags,
        summary: "This browser's conversations with the chatbot, most recent first",
        description: ORIGIN_NOTE,
        params: embedTokenParams,
        querystring: embedUserQuery,
        response: { 200: embedConversationsAnswer, ...errorAnswers(...EMBED_ERRORS) },
      },
    },
    async (request) => ({ conversations: await chat.conversations(endUser(request, request.query.user)) }),
  );

  app.get(
    '/embed/:token/conversations/:id/messages',
    {
      config: EMBED,
      schema: {
        tags,
        summary: "The messages of one of this browser's conversations (another browser's answer 404)",
        description: ORIGIN_NOTE,
        params: embedConversationParams,
        querystring: embedUserQuery,
        response: { 200: embedHistoryAnswer, ...errorAnswers(...EMBED_ERRORS) },
      },
    },
    async (request) => ({
      history: await chat.history(endUser(request, request.query.user), request.params.id),
    }),
  );
};

const workflowRefused = () =>
  new AppError(422, 'wrong_chatbot_type', 'A workflow has no chat to embed: call it through the public API.');

export default embedPublicRoutes;
