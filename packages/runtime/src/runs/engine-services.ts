import { guardedRequest, NetError, type UrlPolicy } from '@atelier/net';
import type { Db } from '@atelier/db';
import type { EngineServices } from '@atelier/engine';
import {
  countUsage,
  creditsFor,
  ProviderError,
  type ChatResult,
  type Consumption,
  type ProviderAdapters,
} from '@atelier/providers';
import { chargeCredits } from '../credits/charge';
import { RuntimeError } from '../errors';
import { pricingOf, type ModelAccess, type ModelTarget } from '../models/model-access';
import { logModelCall, type CallLog } from './model-call-log';

/** Who a run works for: every model it calls is theirs to pay for and must be in their workspace. */
export interface RunScope {
  organizationId: string;
  workspaceId: string;
  userId: string | null;
  chatbotId: string | null;
  chatbotName: string;
  conversationId: string | null;
  storeContent: boolean;
}

const missing = (what: string, target: ModelTarget) =>
  new RuntimeError(
    422,
    'unsupported_model',
    `The model "${target.model.name}" (${target.provider.kind}) cannot ${what}; choose another model.`,
  );

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function need<K extends keyof ProviderAdapters>(
  adapters: ProviderAdapters,
  key: K,
  what: string,
  target: ModelTarget,
): NonNullable<ProviderAdapters[K]> {
  const capability = adapters[key];
  if (!capability) throw missing(what, target);
  return capability as NonNullable<ProviderAdapters[K]>;
}

/**
 * The engine's services for one run, on the workspace's providers: each model call is charged to the
 * organization and logged; every URL a node fetches goes through the SSRF guard.
 */
export function createEngineServices(deps: {
  db: Db;
  models: ModelAccess;
  scope: RunScope;
  httpPolicy: UrlPolicy;
}): EngineServices {
  const { db, models, scope } = deps;
  const target = async (modelId: string) => {
    // A flow's model ids are free text: anything but a UUID would reach the query and fail there.
    if (!UUID.test(modelId)) {
      throw new RuntimeError(
        404,
        'model_not_found',
        `The model ${modelId} does not exist in this workspace; choose another model.`,
      );
    }
    return models.target(scope.organizationId, scope.workspaceId, modelId);
  };
  const adaptersOf = (t: ModelTarget) => models.adaptersFor(t.provider);

  async function charge(t: ModelTarget, used: Consumption, what: string) {
    const amount = creditsFor(pricingOf(t.model), used);
    if (amount <= 0) return;
    await chargeCredits(db, scope.organizationId, {
      amount,
      userId: scope.userId,
      description: `${what} with ${t.model.name} in ${scope.chatbotName}`,
      metadata: { chatbot_id: scope.chatbotId, model_id: t.model.id },
    });
  }

  return {
    async chat(request) {
      const primary = await target(request.modelId);
      const started = performance.now();
      let firstTokenMs: number | null = null;
      let streamedText = '';
      const attempt = async (t: ModelTarget): Promise<ChatResult> => {
        const chat = need(adaptersOf(t), 'chat', 'chat', t);
        const call = {
          model: t.model.modelName,
          system: request.system,
          messages: request.messages,
          temperature: request.temperature,
          tools: request.tools,
        };
        if (!request.onToken) return chat.complete(call, { signal: request.signal });
        let result: ChatResult | null = null;
        for await (const event of chat.stream(call, { signal: request.signal })) {
          if (event.type === 'text') {
            firstTokenMs ??= performance.now() - started;
            streamedText += event.text;
            request.onToken(event.text);
          } else result = event.result;
        }
        if (!result) throw new ProviderError('provider_error', 'The answer ended without its result.');
        return result;
      };
      let used = primary;
      const log: Omit<CallLog, 'error'> = {
        scope,
        target: primary,
        system: request.system,
        messages: request.messages,
        started,
        streamed: Boolean(request.onToken),
      };
      try {
        let result: ChatResult;
        try {
          result = await attempt(primary);
        } catch (error) {
          // The fallback answers only if nothing reached the client yet: an answer is never spliced.
          const retryable = error instanceof ProviderError && error.code !== 'cancelled';
          if (!request.fallbackModelId || !retryable || streamedText) throw error;
          // Looked up only now: a fallback deleted since the flow was saved must not stop a working model.
          const fallback = await target(request.fallbackModelId).catch(() => null);
          if (!fallback) throw error;
          used = fallback;
          result = await attempt(fallback);
        }
        await Promise.all([
          charge(used, result.usage, 'Flow model call'),
          logModelCall(db, { ...log, target: used, fallback: used !== primary, result, firstTokenMs }),
        ]);
        return {
          text: result.text,
          toolCalls: result.toolCalls,
          usage: result.usage,
          usedFallback: used !== primary,
        };
      } catch (error) {
        const usage = await countUsage(
          null,
          { system: request.system, messages: request.messages },
          streamedText,
        );
        await Promise.all([
          charge(used, usage, 'Flow model call (failed)'),
          logModelCall(db, {
            ...log,
            target: used,
            fallback: used !== primary,
            result: { text: streamedText, toolCalls: [], usage, finishReason: 'error' },
            firstTokenMs,
            error: error instanceof Error ? error.message : String(error),
          }),
        ]).catch(() => undefined);
        throw error;
      }
    },

    async image(request) {
      const t = await target(request.modelId);
      const result = await need(adaptersOf(t), 'images', 'generate images', t).generate(
        {
          model: t.model.modelName,
          prompt: request.prompt,
          n: request.n,
          size: request.size,
          quality: request.quality,
          style: request.style,
        },
        { signal: request.signal },
      );
      await charge(t, { images: result.images.length }, 'Image generation');
      return { images: result.images };
    },

    async speech(request) {
      const t = await target(request.modelId);
      const result = await need(adaptersOf(t), 'textToSpeech', 'speak', t).speak(
        {
          model: t.model.modelName,
          input: request.input,
          voice: request.voice,
          format: request.format,
          speed: request.speed,
        },
        { signal: request.signal },
      );
      await charge(t, { calls: 1 }, 'Text to speech');
      return { data: new Uint8Array(result.audio), mimeType: result.contentType };
    },

    async transcribe(request) {
      const t = await target(request.modelId);
      const result = await need(adaptersOf(t), 'speechToText', 'transcribe audio', t).transcribe(
        {
          model: t.model.modelName,
          audio: Buffer.from(request.audio.data),
          filename: request.audio.name,
          language: request.language,
          temperature: request.temperature,
        },
        { signal: request.signal },
      );
      await charge(t, { calls: 1 }, 'Speech to text');
      return { text: result.text };
    },

    async ocr(request) {
      const t = await target(request.modelId);
      const result = await need(adaptersOf(t), 'ocr', 'read documents', t).read(
        t.model.modelName,
        request.document,
        {
          signal: request.signal,
        },
      );
      await charge(t, result.usage, 'OCR');
      return { text: result.text };
    },

    async video(request) {
      const t = await target(request.modelId);
      const result = await need(adaptersOf(t), 'video', 'make videos', t).generate(
        { model: t.model.modelName, prompt: request.prompt, seconds: request.seconds, size: request.size },
        { signal: request.signal },
      );
      await charge(t, { seconds: request.seconds }, 'Video generation');
      return { data: new Uint8Array(result.video), mimeType: result.contentType };
    },

    async rerank(request) {
      const t = await target(request.modelId);
      const result = await need(adaptersOf(t), 'rerank', 'rerank', t).rerank(
        { model: t.model.modelName, query: request.query, documents: request.documents, topK: request.topK },
        { signal: request.signal },
      );
      await charge(t, { calls: 1 }, 'Rerank');
      return result;
    },

    async http(request) {
      const res = await guardedRequest(
        {
          method: request.method,
          url: request.url,
          headers: request.headers,
          body: request.body,
          timeoutMs: request.timeoutMs,
          signal: request.signal,
        },
        deps.httpPolicy,
      ).catch((error: unknown) => {
        throw error instanceof NetError ? new RuntimeError(error.status, error.code, error.detail) : error;
      });
      return { status: res.status, statusText: res.statusText, headers: res.headers, body: res.body };
    },
  };
}
