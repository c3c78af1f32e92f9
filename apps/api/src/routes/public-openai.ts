import { chatCompletion, chatCompletionBody, modelList, openAiErrorBody } from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiKeyOf } from '../plugins/auth';
import { uploadBodyLimit } from '../plugins/body-limits';
import { openSse } from '../plugins/sse';
import { AppError } from '../services/errors';
import { completionShapes, contextOf, fromCompletionRequest } from '../services/public-chat/openai-adapter';
import { endUserOf } from '../services/public-chat/end-user';

export const PUBLIC_TAGS = ['public-api'];
/** Every public-API route: a chatbot's API key, counted against its per-minute limit. */
export const PUBLIC_ACCESS = { access: 'api_key' as const, rateLimitPreset: 'publicApi' as const };
export const PUBLIC_SECURITY = [{ apiKey: [] }];
/** The end user of an OpenAI client that sends no `user`. */
const DEFAULT_END_USER = 'openai-client';
/** OpenAI's clients take SSE comments as keep-alives; a JSON heartbeat would read as a chunk. */
const KEEP_ALIVE = ': keep-alive\n\n';

const openAiErrors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, openAiErrorBody])) as Record<number, typeof openAiErrorBody>;

/**
 * The OpenAI-compatible face of a chatbot: any OpenAI client (base URL `…/v1`, the API key as its key,
 * the chatbot's id as the model) chats with a simple chatbot, a chatflow or a workflow. Each call is a
 * new conversation of the end user (`user`), stored, logged with the key's name and charged.
 */
const publicOpenAiRoutes: FastifyPluginAsyncZod = async (app) => {
  const chat = app.services.publicChat;
  const config = { ...PUBLIC_ACCESS, openAiErrors: true };

  app.get(
    '/v1/models',
    {
      config,
      schema: {
        tags: PUBLIC_TAGS,
        operationId: 'listModels',
        security: PUBLIC_SECURITY,
        summary: "The key's chatbot, as OpenAI's model list (its id is the `model` to send)",
        response: { 200: modelList, ...openAiErrors(401, 404, 409, 429) },
      },
    },
    async (request) => {
      const key = apiKeyOf(request);
      const bot = await chat.chatbot(endUserOf(key, DEFAULT_END_USER));
      return {
        object: 'list' as const,
        data: [
          {
            id: bot.id,
            object: 'model' as const,
            created: Math.floor(bot.createdAt.getTime() / 1000),
            owned_by: 'atelier',
            name: bot.name,
            chatbot_type: bot.type,
          },
        ],
      };
    },
  );

  app.post(
    '/v1/chat/completions',
    {
      config: { ...config, eventStream: 'on-request' },
      bodyLimit: uploadBodyLimit(app.config.images),
      schema: {
        tags: PUBLIC_TAGS,
        operationId: 'createChatCompletion',
        security: PUBLIC_SECURITY,
        summary: 'OpenAI-compatible chat completion with the chatbot (`model` = its id)',
        description:
          "Simple chatbots answer the conversation sent in `messages`; chatflows take the last user message as their query and the earlier ones as history; workflows take their input fields from `metadata` and from a user message holding a JSON object. System messages and sampling parameters are ignored: the chatbot decides. With `stream: true` the answer is server-sent `chat.completion.chunk` objects ending with `data: [DONE]` (with `stream_options.include_usage`, a last chunk carries the usage); a flow's answer (its final output) arrives as one chunk when the run ends; a failure after the stream began is a `data: {\"error\": …}` event. When the chatbot's knowledge found passages, the answer carries them as Azure OpenAI's \"On your data\" does: `message.context.citations` (blocking), or a chunk whose `delta.context.citations` comes before the text (streaming; a flow's with its answer), each with `content` (the passage's start), `title`, `filepath`, `chunk_id`, and Atelier's `score`, `collection_id`, `collection_name` and `document_id`. Errors carry OpenAI's `{error: {message, type, code, param}}` beside `detail` and `code`.",
        body: chatCompletionBody,
        response: { 200: chatCompletion, ...openAiErrors(401, 402, 404, 409, 413, 422, 429, 502) },
      },
    },
    async (request, reply) => {
      const key = apiKeyOf(request);
      const body = request.body;
      if (body.model !== key.chatbotId) {
        throw new AppError(
          404,
          'model_not_found',
          "This model does not exist or this key cannot reach it; the model is the chatbot's id (GET /v1/models).",
        );
      }
      const endUser = endUserOf(key, body.user ?? DEFAULT_END_USER);
      const bot = await chat.chatbot(endUser);
      const turn = await chat.send(endUser, fromCompletionRequest(body, bot.type));
      const shapes = completionShapes(body.model);

      if (!body.stream) {
        const controller = new AbortController();
        reply.raw.on('close', () => controller.abort());
        const answer = await chat.answer(turn, controller.signal);
        if (answer.status !== 'succeeded') {
          throw new AppError(502, 'inference_error', answer.error ?? 'The assistant could not answer.');
        }
        const usage = await chat.usage(turn.conversation.id);
        return shapes.completion(answer.answer, usage, turn.conversation.id, answer.sources);
      }

      const stream = openSse(reply, app.config.heartbeatMs, KEEP_ALIVE);
      const fail = (message: string, code: string) =>
        stream.send({ error: { message, type: 'server_error', code, param: null } });
      try {
        stream.send(shapes.chunk({ role: 'assistant', content: '' }));
        if (turn.kind === 'simple') {
          let failed = false;
          await chat.streamSimple(
            turn.prepared,
            (event) => {
              if (event.type === 'sources' && event.sources.length > 0) {
                stream.send(shapes.chunk(contextOf(event.sources)));
              }
              if (event.type === 'text') stream.send(shapes.chunk({ content: event.text }));
              if (event.type === 'inference_error') {
                failed = true;
                fail(event.message, event.code);
              }
            },
            stream.signal,
          );
          if (failed) return;
        } else {
          const answer = await chat.answer(turn, stream.signal);
          if (answer.status !== 'succeeded') {
            return fail(answer.error ?? 'Workflow/Chatflow execution error.', 'execution_error');
          }
          stream.send(shapes.chunk({ content: answer.answer, ...contextOf(answer.sources) }));
        }
        stream.send(shapes.chunk({}, 'stop'));
        if (body.stream_options?.include_usage) {
          stream.send(shapes.usageChunk(await chat.usage(turn.conversation.id)));
        }
      } catch (error) {
        request.log.error({ err: error }, 'public chat completion stream failed');
        fail('An error occurred during inference', 'internal_error');
      } finally {
        stream.end();
      }
    },
  );
};

export default publicOpenAiRoutes;
