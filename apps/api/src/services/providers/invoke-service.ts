import type { models, providers } from '@atelier/db';
import { creditsFor, withFallback, type Consumption, type ProviderAdapters } from '@atelier/providers';
import type { InvokeModelAnswer, InvokeModelBody, ModelType } from '@atelier/schemas';
import type { Principal } from '../auth/principal';
import type { CreditsService } from '../credits/credits-service';
import { AppError } from '../errors';
import { pricingOf, type ModelsService } from './models-service';
import type { WorkspacesService } from '../workspaces/workspaces-service';
import type { ProvidersService } from './providers-service';

type Target = { model: typeof models.$inferSelect; provider: typeof providers.$inferSelect };
interface Outcome {
  output: unknown;
  used: Consumption;
  firstTokenMs: number | null;
}

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

/** Runs one call of a model's type on its provider's adapter, measuring what it consumed. */
async function run(
  adapters: ProviderAdapters,
  type: ModelType,
  name: string,
  body: InvokeModelBody,
  signal: AbortSignal,
): Promise<Outcome> {
  const started = performance.now();
  switch (type) {
    case 'llm':
    case 'llm-multimodal': {
      const chat = must(adapters.chat, type);
      const messages = need(body.messages, 'messages', type).map((m, i, all) =>
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
      let firstTokenMs: number | null = null;
      for await (const event of chat.stream(
        {
          model: name,
          messages,
          system: body.system,
          temperature: body.temperature,
          maxTokens: body.max_tokens,
        },
        { signal },
      )) {
        if (event.type === 'text' && firstTokenMs === null) firstTokenMs = performance.now() - started;
        if (event.type === 'done') {
          const { text, usage, finishReason } = event.result;
          return { output: { text, finish_reason: finishReason }, used: usage, firstTokenMs };
        }
      }
      throw new AppError(502, 'provider_error', 'The provider ended the answer without finishing it.');
    }
    case 'text-embeddings': {
      const input = need(body.input, 'input', type);
      const result = await must(adapters.embeddings, type).embed(
        name,
        Array.isArray(input) ? input : [input],
        { signal },
      );
      return {
        output: { embeddings: result.vectors, dimensions: result.vectors[0]?.length ?? 0 },
        used: result.usage,
        firstTokenMs: null,
      };
    }
    case 'text-to-image': {
      const result = await must(adapters.images, type).generate(
        {
          model: name,
          prompt: need(body.prompt, 'prompt', type),
          n: body.n,
          size: body.size,
          quality: body.quality,
          style: body.style,
        },
        { signal },
      );
      return {
        output: { images: result.images },
        used: { images: result.images.length },
        firstTokenMs: null,
      };
    }
    case 'text-to-speech': {
      const input = need(body.input, 'input', type);
      const text = Array.isArray(input) ? input.join('\n') : input;
      const result = await must(adapters.textToSpeech, type).speak(
        { model: name, input: text, voice: body.voice, format: body.response_format, speed: body.speed },
        { signal },
      );
      // Speech is priced by its text: about four characters to a token.
      const output = {
        audio: `data:${result.contentType};base64,${result.audio.toString('base64')}`,
        content_type: result.contentType,
      };
      return { output, used: { inputTokens: Math.ceil(text.length / 4) }, firstTokenMs: null };
    }
    case 'speech-to-text': {
      const audio = decodeAudio(need(body.audio, 'audio', type));
      const result = await must(adapters.speechToText, type).transcribe(
        {
          model: name,
          audio,
          filename: body.filename ?? 'audio.mp3',
          language: body.language,
          temperature: body.temperature,
        },
        { signal },
      );
      return { output: { text: result.text }, used: {}, firstTokenMs: null };
    }
    case 'ocr': {
      const result = await must(adapters.ocr, type).read(name, need(body.image, 'image', type), { signal });
      return { output: { text: result.text }, used: result.usage, firstTokenMs: null };
    }
    case 'rerank': {
      const documents = need(body.documents, 'documents', type);
      const result = await must(adapters.rerank, type).rerank(
        { model: name, query: need(body.query, 'query', type), documents, topK: body.top_k },
        { signal },
      );
      return {
        output: { results: result.results.map((r) => ({ ...r, document: documents[r.index] })) },
        used: {},
        firstTokenMs: null,
      };
    }
    case 'text-to-video': {
      const seconds = body.seconds ?? 4;
      const result = await must(adapters.video, type).generate(
        { model: name, prompt: need(body.prompt, 'prompt', type), seconds, size: body.size },
        { signal },
      );
      const output = {
        id: result.id,
        video: `data:${result.contentType};base64,${result.video.toString('base64')}`,
      };
      return { output, used: { seconds }, firstTokenMs: null };
    }
  }
}

/**
 * One metered model call: refused with 402 before it starts when no credits are left, retried on the
 * fallback model when the model fails, charged to the organization when it succeeds.
 */
export function createInvokeService(deps: {
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
      const started = performance.now();
      const attempt = (target: Target) => () =>
        run(
          deps.providers.adaptersFor(target.provider),
          target.model.modelType,
          target.model.modelName,
          body,
          signal,
        ).then((outcome) => ({ outcome, target }));
      const { value, fallback } = await withFallback(attempt(primary), backup ? attempt(backup) : undefined);
      const { outcome, target } = value;
      const credits = creditsFor(pricingOf(target.model), outcome.used);
      await deps.credits.charge(principal.organizationId, {
        amount: credits,
        userId: principal.userId,
        description: `${target.model.modelType} call to ${target.model.name}`,
        metadata: { model_id: target.model.id, fallback, ...outcome.used },
      });
      return {
        model_id: target.model.id,
        model_type: target.model.modelType,
        fallback,
        output: outcome.output,
        usage: {
          input_tokens: outcome.used.inputTokens ?? 0,
          output_tokens: outcome.used.outputTokens ?? 0,
          images: outcome.used.images ?? 0,
          seconds: outcome.used.seconds ?? 0,
        },
        credits,
        timings: {
          first_token_ms: outcome.firstTokenMs === null ? null : Math.round(outcome.firstTokenMs),
          total_ms: Math.round(performance.now() - started),
        },
      };
    },
  };
}

export type InvokeService = ReturnType<typeof createInvokeService>;
