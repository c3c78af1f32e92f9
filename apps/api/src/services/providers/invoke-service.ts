import type { Db, models, providers } from '@atelier/db';
import {
  meteredCall,
  meteredChat,
  speechConsumption,
  type MeteredAttempt,
  type MeteredResult,
} from '@atelier/metering';
import type { ChatMessage, ProviderAdapters } from '@atelier/providers';
import type { InvokeModelAnswer, InvokeModelBody, ModelType } from '@atelier/schemas';
import type { Principal } from '../auth/principal';
import type { CreditsService } from '../credits/credits-service';
import { AppError } from '../errors';
import type { ModelsService } from './models-service';
import type { WorkspacesService } from '../workspaces/workspaces-service';
import type { ProvidersService } from './providers-service';

type Target = { model: typeof models.$inferSelect; provider: typeof providers.$inferSelect };

const need = <T>(value: T | undefined, field: string, type: string): T => {
  if (value === undefined) throw new AppError(422, 'missing_input', `A ${type} model needs "${field}".`);
  return value;
};

/** The adapter for a model type, or a clear refusal when the provider's kind has none. */
function must<T>(adapter: T | undefined, type: string): T {
  if (!adapter) throw new AppError(422, 'unsupported_model_type', `This provider cannot run ${type} models.`);
  return adapter;
}

function decodeAudio(value: string): Buffer {
  const data = /^data:[^;]+;base64,(.*)$/s.exec(value);
  return Buffer.from(data ? data[1]! : value, 'base64');
}

/** The adapter of each model type. */
const ADAPTER: Record<ModelType, keyof ProviderAdapters> = {
  llm: 'chat',
  'llm-multimodal': 'chat',
  'text-embeddings': 'embeddings',
  'text-to-image': 'images',
  'text-to-speech': 'textToSpeech',
  'speech-to-text': 'speechToText',
  ocr: 'ocr',
  rerank: 'rerank',
  'text-to-video': 'video',
};

type Run = (
  adapters: ProviderAdapters,
  name: string,
  signal: AbortSignal,
) => Promise<MeteredAttempt<unknown>>;

/**
 * One call of a model type other than chat, its input checked before anything runs: what the inference
 * log shows of the request, and the call measuring what it consumed.
 */
function prepare(
  type: Exclude<ModelType, 'llm' | 'llm-multimodal'>,
  body: InvokeModelBody,
): { prompt: string; run: Run } {
  switch (type) {
    case 'text-embeddings': {
      const input = need(body.input, 'input', type);
      const inputs = Array.isArray(input) ? input : [input];
      return {
        prompt: inputs.join('\n'),
        run: async (adapters, name, signal) => {
          const result = await must(adapters.embeddings, type).embed(name, inputs, { signal });
          return {
            value: { embeddings: result.vectors, dimensions: result.vectors[0]?.length ?? 0 },
            used: result.usage,
            response: `[${result.vectors.length} vector(s)]`,
          };
        },
      };
    }
    case 'text-to-image': {
      const prompt = need(body.prompt, 'prompt', type);
      return {
        prompt,
        run: async (adapters, name, signal) => {
          const result = await must(adapters.images, type).generate(
            { model: name, prompt, n: body.n, size: body.size, quality: body.quality, style: body.style },
            { signal },
          );
          return {
            value: { images: result.images },
            used: { images: result.images.length },
            response: `[${result.images.length} image(s)]`,
          };
        },
      };
    }
    case 'text-to-speech': {
      const input = need(body.input, 'input', type);
      const text = Array.isArray(input) ? input.join('\n') : input;
      return {
        prompt: text,
        run: async (adapters, name, signal) => {
          const result = await must(adapters.textToSpeech, type).speak(
            { model: name, input: text, voice: body.voice, format: body.response_format, speed: body.speed },
            { signal },
          );
          const value = {
            audio: `data:${result.contentType};base64,${result.audio.toString('base64')}`,
            content_type: result.contentType,
          };
          return { value, used: speechConsumption(text), response: `[audio ${result.contentType}]` };
        },
      };
    }
    case 'speech-to-text': {
      const audio = decodeAudio(need(body.audio, 'audio', type));
      const filename = body.filename ?? 'audio.mp3';
      return {
        prompt: `[audio ${filename}]`,
        run: async (adapters, name, signal) => {
          const result = await must(adapters.speechToText, type).transcribe(
            { model: name, audio, filename, language: body.language, temperature: body.temperature },
            { signal },
          );
          return { value: { text: result.text }, used: { calls: 1 }, response: result.text };
        },
      };
    }
    case 'ocr': {
      const image = need(body.image, 'image', type);
      return {
        prompt: '[document]',
        run: async (adapters, name, signal) => {
          const result = await must(adapters.ocr, type).read(name, image, { signal });
          return { value: { text: result.text }, used: result.usage, response: result.text };
        },
      };
    }
    case 'rerank': {
      const documents = need(body.documents, 'documents', type);
      const query = need(body.query, 'query', type);
      return {
        prompt: query,
        run: async (adapters, name, signal) => {
          const result = await must(adapters.rerank, type).rerank(
            { model: name, query, documents, topK: body.top_k },
            { signal },
          );
          return {
            value: { results: result.results.map((r) => ({ ...r, document: documents[r.index] })) },
            used: { calls: 1 },
            response: `[${result.results.length} result(s)]`,
          };
        },
      };
    }
    case 'text-to-video': {
      const seconds = body.seconds ?? 4;
      const prompt = need(body.prompt, 'prompt', type);
      return {
        prompt,
        run: async (adapters, name, signal) => {
          const result = await must(adapters.video, type).generate(
            { model: name, prompt, seconds, size: body.size },
            { signal },
          );
          const value = {
            id: result.id,
            video: `data:${result.contentType};base64,${result.video.toString('base64')}`,
          };
          return { value, used: { seconds }, response: `[video ${result.contentType}]` };
        },
      };
    }
  }
}

/** The chat messages of an invoke, images joined to the last user message. */
function chatMessages(type: ModelType, body: InvokeModelBody): ChatMessage[] {
  return need(body.messages, 'messages', type).map((m, i, all) =>
    m.role === 'user' && i === all.length - 1 && body.images?.length
      ? {
          role: 'user' as const,
          content: [
            { type: 'text' as const, text: m.content },
            ...body.images.map((url) => ({ type: 'image' as const, url })),
          ],
        }
      : m,
  );
}

/**
 * One model call, metered by @atelier/metering: refused with 402 before it starts when no credits are
 * left, retried on the fallback model when the model fails, logged (chatbot null) and charged whether it
 * succeeds or fails (a failed call is charged what it consumed, usually nothing).
 */
export function createInvokeService(deps: {
  db: Db;
  models: ModelsService;
  providers: ProvidersService;
  credits: CreditsService;
  workspaces: WorkspacesService;
}) {
  return {
    async invoke(
      principal: Principal,
      modelId: string,
      body: InvokeModelBody,
      signal: AbortSignal,
    ): Promise<InvokeModelAnswer> {
      const primary = await deps.models.findWithProvider(principal, modelId);
      await deps.workspaces.assertCanBuild(principal, primary.model.workspaceId, 'call its models directly');
      const backup = body.fallback_model_id
        ? await deps.models.findWithProvider(principal, body.fallback_model_id)
        : undefined;
      if (backup && backup.model.modelType !== primary.model.modelType) {
        throw new AppError(
          422,
          'fallback_type_mismatch',
          'The fallback model must be of the same type as the model.',
        );
      }
      await deps.credits.ensureAvailable(principal.organizationId);
      const type = primary.model.modelType as ModelType;
      const adaptersOf = (t: Target) => deps.providers.adaptersFor(t.provider);
      must(adaptersOf(primary)[ADAPTER[type]], type);
      // Invoke works for no chatbot and no conversation: its log row has neither.
      const common = {
        db: deps.db,
        scope: {
          organizationId: principal.organizationId,
          workspaceId: primary.model.workspaceId,
          userId: principal.userId,
          chatbotId: null,
          chatbotName: '',
          conversationId: null,
          storeContent: true,
        },
        primary,
        fallback: backup ?? null,
        description: (t: Target) => `${t.model.modelType} call to ${t.model.name}`,
      };
      let metered: MeteredResult<unknown>;
      if (type === 'llm' || type === 'llm-multimodal') {
        const chat = await meteredChat({
          ...common,
          request: {
            messages: chatMessages(type, body),
            system: body.system,
            temperature: body.temperature,
            maxTokens: body.max_tokens,
          },
          chatOf: (t) => must(adaptersOf(t).chat, type),
          signal,
          stream: true,
        });
        metered = { ...chat, value: { text: chat.value.text, finish_reason: chat.value.finishReason } };
      } else {
        const call = prepare(type, body);
        metered = await meteredCall({
          ...common,
          prompt: call.prompt,
          userMessage: call.prompt,
          streamed: false,
          call: (t) => call.run(adaptersOf(t), t.model.modelName, signal),
        });
      }
      const { target, fallback, used, credits } = metered;
      return {
        model_id: target.model.id,
        model_type: target.model.modelType,
        fallback,
        output: metered.value,
        usage: {
          input_tokens: used.inputTokens ?? 0,
          output_tokens: used.outputTokens ?? 0,
          images: used.images ?? 0,
          seconds: used.seconds ?? 0,
        },
        credits,
        timings: {
          first_token_ms: metered.firstTokenMs === null ? null : Math.round(metered.firstTokenMs),
          total_ms: Math.round(metered.totalMs),
        },
      };
    },
  };
}

export type InvokeService = ReturnType<typeof createInvokeService>;
