import { guardedRequest, NetError, type UrlPolicy } from '@atelier/net';
import type { Db } from '@atelier/db';
import type { EngineServices } from '@atelier/engine';
import type { Knowledge } from '@atelier/knowledge';
import {
  meteredCall,
  meteredChat,
  speechConsumption,
  type MeteredAttempt,
  type MeterScope,
} from '@atelier/metering';
import type { ProviderAdapters } from '@atelier/providers';
import { SpanStatusCode, withSpan } from '@atelier/telemetry';
import { RuntimeError } from '../errors';
import { nodeTypeLabel } from './run-telemetry';
import { type ModelAccess, type ModelTarget } from '@atelier/metering';

/** Who a run works for: every model it calls is theirs to pay for and must be in their workspace. */
export type RunScope = MeterScope;

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
  knowledge?: Knowledge | undefined;
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

  /** One metered call of a non-chat model type: one inference-log row and one charge, also on failure. */
  const metered = <T>(
    t: ModelTarget,
    what: string,
    prompt: string,
    call: () => Promise<MeteredAttempt<T>>,
  ): Promise<T> =>
    meteredCall<T>({
      db,
      scope,
      primary: t,
      prompt,
      userMessage: prompt,
      streamed: false,
      description: `${what} with ${t.model.name} in ${scope.chatbotName}`,
      metadata: { chatbot_id: scope.chatbotId },
      call,
    }).then((r) => r.value);

  return {
    ...(deps.knowledge ? { knowledge: deps.knowledge.engineServices(scope) } : {}),
    /** Each node execution is a span of the run's trace; its model calls are children of it. */
    aroundNode(node, execute) {
      const type = nodeTypeLabel(node.type);
      return withSpan(
        `node ${type}`,
        { attributes: { 'atelier.node_type': type, 'atelier.node_id': node.id } },
        async (span) => {
          const settled = await execute();
          span.setAttribute('atelier.node_status', settled.status);
          if (settled.status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR });
          return settled;
        },
      );
    },
    async chat(request) {
      const primary = await target(request.modelId);
      need(adaptersOf(primary), 'chat', 'chat', primary);
      const { value, fallback } = await meteredChat({
        db,
        scope,
        primary,
        // Looked up only when needed: a fallback deleted since the flow was saved must not stop a working model.
        fallback: request.fallbackModelId ? () => target(request.fallbackModelId!).catch(() => null) : null,
        request: {
          system: request.system,
          messages: request.messages,
          temperature: request.temperature,
          tools: request.tools,
        },
        chatOf: (t) => need(adaptersOf(t), 'chat', 'chat', t),
        signal: request.signal,
        onToken: request.onToken,
        description: (t) => `Flow model call with ${t.model.name} in ${scope.chatbotName}`,
        metadata: { chatbot_id: scope.chatbotId },
      });
      return { text: value.text, toolCalls: value.toolCalls, usage: value.usage, usedFallback: fallback };
    },

    async image(request) {
      const t = await target(request.modelId);
      const images = need(adaptersOf(t), 'images', 'generate images', t);
      return metered(t, 'Image generation', request.prompt, async () => {
        const result = await images.generate(
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
        return {
          value: { images: result.images },
          used: { images: result.images.length },
          response: `[${result.images.length} image(s)]`,
        };
      });
    },

    async speech(request) {
      const t = await target(request.modelId);
      const speaker = need(adaptersOf(t), 'textToSpeech', 'speak', t);
      return metered(t, 'Text to speech', request.input, async () => {
        const result = await speaker.speak(
          {
            model: t.model.modelName,
            input: request.input,
            voice: request.voice,
            format: request.format,
            speed: request.speed,
          },
          { signal: request.signal },
        );
        return {
          value: { data: new Uint8Array(result.audio), mimeType: result.contentType },
          used: speechConsumption(request.input),
          response: `[audio ${result.contentType}]`,
        };
      });
    },

    async transcribe(request) {
      const t = await target(request.modelId);
      const listener = need(adaptersOf(t), 'speechToText', 'transcribe audio', t);
      return metered(t, 'Speech to text', `[audio ${request.audio.name}]`, async () => {
        const result = await listener.transcribe(
          {
            model: t.model.modelName,
            audio: Buffer.from(request.audio.data),
            filename: request.audio.name,
            language: request.language,
            temperature: request.temperature,
          },
          { signal: request.signal },
        );
        return { value: { text: result.text }, used: { calls: 1 }, response: result.text };
      });
    },

    async ocr(request) {
      const t = await target(request.modelId);
      const reader = need(adaptersOf(t), 'ocr', 'read documents', t);
      return metered(t, 'OCR', '[document]', async () => {
        const result = await reader.read(t.model.modelName, request.document, { signal: request.signal });
        return { value: { text: result.text }, used: result.usage, response: result.text };
      });
    },

    async video(request) {
      const t = await target(request.modelId);
      const maker = need(adaptersOf(t), 'video', 'make videos', t);
      return metered(t, 'Video generation', request.prompt, async () => {
        const result = await maker.generate(
          { model: t.model.modelName, prompt: request.prompt, seconds: request.seconds, size: request.size },
          { signal: request.signal },
        );
        return {
          value: { data: new Uint8Array(result.video), mimeType: result.contentType },
          used: { seconds: request.seconds },
          response: `[video ${result.contentType}]`,
        };
      });
    },

    async rerank(request) {
      const t = await target(request.modelId);
      const ranker = need(adaptersOf(t), 'rerank', 'rerank', t);
      return metered(t, 'Rerank', request.query, async () => {
        const result = await ranker.rerank(
          {
            model: t.model.modelName,
            query: request.query,
            documents: request.documents,
            topK: request.topK,
          },
          { signal: request.signal },
        );
        return { value: result, used: { calls: 1 }, response: `[${result.results.length} result(s)]` };
      });
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
