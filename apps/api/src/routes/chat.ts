import {
  flowErrorBody,
  flowMessageBody,
  conversationsAnswer,
  createConversationBody,
  historyAnswer,
  idParams,
  inputFieldsAnswer,
  messageBody,
  messageFeedbackBody,
  messageFeedbackParams,
  renameConversationBody,
  simpleMessageBody,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALL_ROLES, principalOf } from '../plugins/auth';
import { assertImageLimits, uploadBodyLimit } from '../plugins/body-limits';
import { relayRunEvents, streamAnswer } from '../plugins/sse';
import { chattableChatbot } from '../services/chat/conversations-service';
import { liveChatbot } from '../services/chatbots/published';
import { AUTHED, errorAnswers } from './responses';

const tags = ['chat'];
const everyone = { access: { roles: ALL_ROLES } };
const chatting = { ...everyone, rateLimitPreset: 'chat' as const };

interface InputNode {
  type?: string;
  data?: { fields?: { name?: string; type?: string; isMandatory?: boolean }[] };
}

const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  const conversations = app.services.conversations;

  app.get(
    '/chat-interface/chatbots/:id/input-fields',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Additional inputs the assistant needs besides the message',
        params: idParams,
        response: { 200: inputFieldsAnswer, ...errorAnswers(...AUTHED, 404, 409) },
      },
    },
    async (request) => {
      const bot = await chattableChatbot(app.db, principalOf(request), request.params.id);
      const input = (liveChatbot(bot).configuration.nodes as InputNode[]).find((n) => n.type === 'input');
      const fields = (input?.data?.fields ?? [])
        .filter((f) => f.name && f.name !== 'query')
        .map((f) => ({
          name: f.name!,
          type: (f.type ?? 'string') as 'string',
          is_mandatory: Boolean(f.isMandatory),
        }));
      return { has_additional_inputs: fields.length > 0, input_fields: fields };
    },
  );

  app.get(
    '/chat-interface/conversations',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'My conversations, most recent first',
        response: { 200: conversationsAnswer, ...errorAnswers(...AUTHED) },
      },
    },
    async (request) => ({ conversations: await conversations.list(principalOf(request)) }),
  );

  app.get(
    '/chat-interface/conversations/:id/history',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'The messages of a conversation',
        params: idParams,
        response: { 200: historyAnswer, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => ({ history: await conversations.history(principalOf(request), request.params.id) }),
  );

  app.post(
    '/chat-interface/conversations',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Start a conversation with an assistant',
        body: createConversationBody,
        response: { 201: z.object({ conversation_id: z.string() }), ...errorAnswers(...AUTHED, 404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ conversation_id: await conversations.create(principalOf(request), request.body) }),
  );

  app.put(
    '/chat-interface/conversations/:id',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Rename a conversation',
        params: idParams,
        body: renameConversationBody,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await conversations.rename(principalOf(request), request.params.id, request.body.title);
      return { message: 'Conversation renamed' };
    },
  );

  app.delete(
    '/chat-interface/conversations/:id',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Delete a conversation',
        params: idParams,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await conversations.remove(principalOf(request), request.params.id);
      return { message: 'Conversation deleted' };
    },
  );

  app.put(
    '/chat-interface/conversations/:id/messages/:messageId/feedback',
    {
      config: everyone,
      schema: {
        tags,
        summary: 'Rate an answer of my conversation (thumbs up or down; null takes it back)',
        description: 'The rating is stored with the message and shown with its inference logs.',
        params: messageFeedbackParams,
        body: messageFeedbackBody,
        response: { 200: messageBody, ...errorAnswers(...AUTHED, 404) },
      },
    },
    async (request) => {
      await conversations.rateMessage(
        principalOf(request),
        request.params.id,
        request.params.messageId,
        request.body.rating,
      );
      return { message: 'Feedback saved' };
    },
  );

  app.post(
    '/chat-interface/conversations/:id/simple/message',
    {
      config: { ...chatting, eventStream: 'always' },
      // The text of the conversation so far and its images (CHAT_IMAGE_MAX_COUNT of CHAT_IMAGE_MAX_BYTES).
      bodyLimit: uploadBodyLimit(app.config.images),
      schema: {
        tags,
        summary: 'Send a message to a simple chatbot; the answer streams as server-sent events',
        description:
          'Events are `data: {json}` lines followed by a blank line: start, text (append), heartbeat (every 15 s), inference_error (status 504: timed out), end; then `data: [DONE]`. Refusals before the stream starts answer JSON {detail, code}.',
        params: idParams,
        body: simpleMessageBody,
        response: errorAnswers(...AUTHED, 402, 404, 409, 413, 429),
      },
    },
    async (request, reply) => {
      const images = request.body.messages.flatMap((m) =>
        typeof m.content === 'string' ? [] : m.content.flatMap((p) => (p.type === 'image' ? [p.url] : [])),
      );
      assertImageLimits(images, app.config.images);
      const prepared = await app.services.simpleChat.prepare(
        principalOf(request),
        request.params.id,
        request.body,
      );
      await streamAnswer(
        reply,
        { heartbeatMs: app.config.heartbeatMs, log: request.log, what: 'chat' },
        (send, signal) => app.services.simpleChat.run(prepared, send, signal),
      );
    },
  );
};

export default chatRoutes;

/**
 * The spec's chatflow and workflow message endpoints: the question is stored, the published flow runs
 * (in this process or on a worker), and its structured events stream back, each with an id. A client
 * that leaves does not stop the run; its answer is saved in the conversation when the run ends.
 */
export const flowChatRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const type of ['chatflow', 'workflow'] as const) {
    app.post(
      `/chat-interface/conversations/:id/${type}/message`,
      {
        config: { ...chatting, eventStream: 'always' },
        // The query and additional inputs, files included (as many and as large as images).
        bodyLimit: uploadBodyLimit(app.config.images),
        schema: {
          tags,
          summary: `Send a message to a ${type}; its run's events stream as server-sent events`,
          description:
            'Body: `input_data` (the additional inputs plus `query`). Events: run_started, node_started, node_completed, node_error, node_skipped, text, sources (what the knowledge retrieve nodes found, all of it so far, best first; stored with the answer), then execution_completed (with final_output) or execution_error; heartbeat every 15 s; then `data: [DONE]`. Each event has an `id:`; GET /runs/{run_id}/events with Last-Event-ID re-attaches.',
          params: idParams,
          body: flowMessageBody,
          response: { ...errorAnswers(401, 403, 402, 404, 409, 413, 429), 422: flowErrorBody },
        },
      },
      async (request, reply) => {
        const run = await app.services.runs.startOwnChat(
          principalOf(request),
          request.params.id,
          type,
          request.body.input_data,
          request.body.regenerate === true,
        );
        await relayRunEvents(reply, {
          events: app.runtime.events,
          heartbeatMs: app.config.heartbeatMs,
          runId: run.id,
          after: null,
          log: request.log,
        });
      },
    );
  }
};
