import { terminalEventOf } from '@atelier/runtime';
import {
  endUserBody,
  endUserQuery,
  idParams,
  publicConversationsAnswer,
  publicEventsQuery,
  publicHistoryAnswer,
  publicMessageAnswer,
  publicMessageBody,
  publicRun,
  publicRunAnswer,
  publicRunBody,
  runIdParams,
  runStatus,
} from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiKeyOf } from '../plugins/auth';
import { uploadBodyLimit } from '../plugins/body-limits';
import { relayRunEvents, streamAnswer } from '../plugins/sse';
import { endUserOf } from '../services/public-chat/end-user';
import { toRun } from '../services/runs/runs-service';
import { PUBLIC_ACCESS, PUBLIC_SECURITY, PUBLIC_TAGS } from './public-openai';
import { errorAnswers } from './responses';

const KEY_ERRORS = [401, 404, 409, 422, 429] as const;
const publicRunOf = (row: Parameters<typeof toRun>[0]) => {
  const { started_by: _startedBy, config_version: _version, ...rest } = toRun(row);
  return rest;
};

/**
 * The public API's native calls, speaking Atelier's own events: messages (streamed or blocking) in an
 * end user's conversations, workflow runs followed with Last-Event-ID, and the end user's conversations.
 */
const publicNativeRoutes: FastifyPluginAsyncZod = async (app) => {
  const chat = app.services.publicChat;
  const schema = (operationId: string) => ({ tags: PUBLIC_TAGS, operationId, security: PUBLIC_SECURITY });
  const relay = (reply: Parameters<typeof relayRunEvents>[0], runId: string, log: typeof app.log) =>
    relayRunEvents(reply, {
      events: app.runtime.events,
      heartbeatMs: app.config.heartbeatMs,
      runId,
      after: null,
      log,
    });

  app.post(
    '/v1/chat-messages',
    {
      config: { ...PUBLIC_ACCESS, eventStream: 'on-request' },
      bodyLimit: uploadBodyLimit(app.config.images),
      schema: {
        ...schema('sendMessage'),
        summary: "Send an end user's message to the chatbot (streamed, or one answer at the end)",
        description:
          'Without `conversation_id` a new conversation of this `user` begins. With `stream: true` (default) the answer is server-sent events: a simple chatbot streams start (with conversation_id), sources, text (append), end or inference_error; a chatflow or workflow streams its run\'s events (run_started with run_id and conversation_id, node_started, node_completed, node_error, text, sources when its knowledge retrieve nodes found passages, then execution_completed with final_output, or execution_error), each with an `id:` for GET /v1/runs/{id}/events and Last-Event-ID. Heartbeats (`{"type":"heartbeat"}`) every 15 s; the stream ends with `data: [DONE]`. With `stream: false`, one JSON answer: `answer`, `status`, `error`, and `sources` (the knowledge passages the answer was based on, best first; empty when none).',
        body: publicMessageBody,
        response: { 200: publicMessageAnswer, ...errorAnswers(...KEY_ERRORS, 402, 413) },
      },
    },
    async (request, reply) => {
      const { user, message, inputs, conversation_id, stream } = request.body;
      const turn = await chat.send(endUserOf(apiKeyOf(request), user), {
        conversationId: conversation_id,
        message,
        inputs,
      });
      if (!stream) {
        const controller = new AbortController();
        reply.raw.on('close', () => controller.abort());
        const answer = await chat.answer(turn, controller.signal);
        return {
          conversation_id: turn.conversation.id,
          run_id: turn.kind === 'flow' ? turn.run.id : null,
          ...answer,
        };
      }
      if (turn.kind === 'flow') return relay(reply, turn.run.id, request.log);
      await streamAnswer(
        reply,
        { heartbeatMs: app.config.heartbeatMs, log: request.log, what: 'public message' },
        (send, signal) => chat.streamSimple(turn.prepared, send, signal),
      );
    },
  );

  app.post(
    '/v1/workflows/runs',
    {
      config: { ...PUBLIC_ACCESS, eventStream: 'on-request' },
      bodyLimit: uploadBodyLimit(app.config.images),
      schema: {
        ...schema('startWorkflowRun'),
        summary: 'Start a run of the workflow with these inputs, for an end user',
        description:
          "With `stream: false` (default) answers 201 at once with the run id: follow it with GET /v1/runs/{id}/events, read it with GET /v1/runs/{id}. With `stream: true` the answer is the run's event stream.",
        body: publicRunBody,
        response: { 201: publicRunAnswer, ...errorAnswers(...KEY_ERRORS, 402, 413) },
      },
    },
    async (request, reply) => {
      const { user, inputs, stream } = request.body;
      const { conversation, run } = await chat.startWorkflow(endUserOf(apiKeyOf(request), user), inputs);
      if (stream) return relay(reply, run.id, request.log);
      return reply.status(201).send({ run_id: run.id, conversation_id: conversation.id, status: run.status });
    },
  );

  app.get(
    '/v1/runs/:id',
    {
      config: PUBLIC_ACCESS,
      schema: {
        ...schema('getRun'),
        summary: "One of the end user's runs: status, outputs, final output, error",
        params: runIdParams,
        querystring: endUserQuery,
        response: { 200: publicRun, ...errorAnswers(...KEY_ERRORS) },
      },
    },
    async (request) =>
      publicRunOf(await chat.run(endUserOf(apiKeyOf(request), request.query.user), request.params.id)),
  );

  app.get(
    '/v1/runs/:id/events',
    {
      config: { ...PUBLIC_ACCESS, eventStream: 'always' },
      schema: {
        ...schema('streamRunEvents'),
        summary: "A run's events as server-sent events; resume with Last-Event-ID",
        description:
          'Each event has an `id:`; send the last one received as the `Last-Event-ID` header (or `last_event_id`) to resume without gaps or duplicates. Ends with `data: [DONE]` after execution_completed or execution_error. Leaving does not stop the run.',
        params: runIdParams,
        querystring: publicEventsQuery,
        response: errorAnswers(...KEY_ERRORS),
      },
    },
    async (request, reply) => {
      const run = await chat.run(endUserOf(apiKeyOf(request), request.query.user), request.params.id);
      const header = request.headers['last-event-id'];
      const after = (typeof header === 'string' ? header : null) ?? request.query.last_event_id ?? null;
      await relayRunEvents(reply, {
        events: app.runtime.events,
        heartbeatMs: app.config.heartbeatMs,
        runId: run.id,
        after,
        log: request.log,
        ended: terminalEventOf(run),
      });
    },
  );

  app.post(
    '/v1/runs/:id/cancel',
    {
      config: PUBLIC_ACCESS,
      schema: {
        ...schema('cancelRun'),
        summary: 'Cancel a run (a queued run ends at once; a running one stops at its next step)',
        params: runIdParams,
        body: endUserBody,
        response: {
          200: z.object({ run_id: z.string(), status: runStatus }),
          ...errorAnswers(...KEY_ERRORS),
        },
      },
    },
    async (request) => {
      const run = await chat.run(endUserOf(apiKeyOf(request), request.body.user), request.params.id);
      return { run_id: run.id, status: await app.services.runs.cancelRun(run) };
    },
  );

  app.get(
    '/v1/conversations',
    {
      config: PUBLIC_ACCESS,
      schema: {
        ...schema('listConversations'),
        summary: "The end user's conversations made with this key, most recent first",
        querystring: endUserQuery,
        response: { 200: publicConversationsAnswer, ...errorAnswers(...KEY_ERRORS) },
      },
    },
    async (request) => ({
      conversations: await chat.conversations(endUserOf(apiKeyOf(request), request.query.user)),
    }),
  );

  app.get(
    '/v1/conversations/:id/messages',
    {
      config: PUBLIC_ACCESS,
      schema: {
        ...schema('getConversationMessages'),
        summary: "The messages of one of the end user's conversations",
        params: idParams,
        querystring: endUserQuery,
        response: { 200: publicHistoryAnswer, ...errorAnswers(...KEY_ERRORS) },
      },
    },
    async (request) => ({
      history: await chat.history(endUserOf(apiKeyOf(request), request.query.user), request.params.id),
    }),
  );
};

export default publicNativeRoutes;
