import { z } from 'zod';
import { uuid } from './common';
import { modelTypes, providerKinds } from './constants';

export const modelType = z.enum(modelTypes);
export const providerKind = z.enum(providerKinds);

/** What a kind of provider needs and can do; the web app's provider selection modal renders it. */
export const providerKindInfo = z.object({
  kind: providerKind,
  label: z.string(),
  needs_api_key: z.boolean(),
  needs_base_url: z.boolean(),
  default_base_url: z.string().nullable(),
  /** Extra settings, such as Azure's api_version. */
  settings: z.array(
    z.object({ name: z.string(), label: z.string(), required: z.boolean(), default: z.string().nullable() }),
  ),
  model_types: z.array(modelType),
});
export type ProviderKindInfo = z.infer<typeof providerKindInfo>;

const money = z.number().min(0).max(1_000_000);
/** Credits charged: per 1k input and output tokens, per call, per image, per second of audio or video. */
export const modelPricing = z
  .object({
    input_per_1k: money.default(0),
    output_per_1k: money.default(0),
    per_call: money.default(0),
    per_image: money.default(0),
    per_second: money.default(0),
  })
  .strict();
export type ModelPricing = z.infer<typeof modelPricing>;
/** Prices to change: only the fields given (no defaults, so an update never resets the others). */
export const modelPricingPatch = z
  .object({
    input_per_1k: money.optional(),
    output_per_1k: money.optional(),
    per_call: money.optional(),
    per_image: money.optional(),
    per_second: money.optional(),
  })
  .strict();

/** A provider as the API shows it: never its secrets, only a masked hint. */
export const provider = z.object({
  id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  kind: providerKind,
  base_url: z.string().nullable(),
  settings: z.record(z.string(), z.string()),
  /** e.g. "sk-…a1b2"; null when no key is stored. */
  api_key_hint: z.string().nullable(),
  created_at: z.string(),
});
export type Provider = z.infer<typeof provider>;

const baseUrl = z
  .url({ error: 'must be an http(s) URL', protocol: /^https?$/ })
  .max(500)
  .transform((v) => v.replace(/\/+$/, ''));

export const createProviderBody = z
  .object({
    workspace_id: uuid,
    name: z.string().trim().min(1, { error: 'This field is required' }).max(100),
    kind: providerKind,
    base_url: baseUrl.optional(),
    api_key: z.string().trim().min(1).max(1000).optional(),
    settings: z.record(z.string().max(50), z.string().max(500)).optional(),
  })
  .strict();
export type CreateProviderBody = z.infer<typeof createProviderBody>;

export const updateProviderBody = z
  .object({
    name: z.string().trim().min(1, { error: 'This field is required' }).max(100).optional(),
    base_url: baseUrl.nullable().optional(),
    /** Replaces the stored key when given; omit to keep it. */
    api_key: z.string().trim().min(1).max(1000).optional(),
    settings: z.record(z.string().max(50), z.string().max(500)).optional(),
  })
  .strict();

export const providersAnswer = z.object({ providers: z.array(provider) });
export const providerKindsAnswer = z.object({ kinds: z.array(providerKindInfo) });
export const providerTestAnswer = z.object({ ok: z.boolean(), detail: z.string(), latency_ms: z.number() });
export const remoteModelsAnswer = z.object({
  models: z.array(z.object({ name: z.string(), suggested_type: modelType.nullable() })),
});

export const model = z.object({
  id: z.string(),
  workspace_id: z.string(),
  provider_id: z.string(),
  name: z.string(),
  model_name: z.string(),
  model_type: modelType,
  description: z.string(),
  pricing: modelPricing,
  created_at: z.string(),
});
export type Model = z.infer<typeof model>;

/** A model with its provider, without secrets ("partial server"). */
export const modelWithProvider = model.extend({ provider: provider.omit({ api_key_hint: true }) });
export type ModelWithProvider = z.infer<typeof modelWithProvider>;

export const createModelBody = z
  .object({
    workspace_id: uuid,
    provider_id: uuid,
    name: z.string().trim().max(120).optional(),
    model_name: z.string().trim().min(1, { error: 'This field is required' }).max(200),
    model_type: modelType,
    description: z.string().trim().max(1000).optional(),
    pricing: modelPricingPatch.optional(),
  })
  .strict();
export type CreateModelBody = z.infer<typeof createModelBody>;

export const updateModelBody = z
  .object({
    name: z.string().trim().max(120).optional(),
    model_name: z.string().trim().min(1, { error: 'This field is required' }).max(200).optional(),
    model_type: modelType.optional(),
    description: z.string().trim().max(1000).optional(),
    pricing: modelPricingPatch.optional(),
  })
  .strict();

export const modelTypesAnswer = z.object({ data: z.array(z.object({ id: modelType, label: z.string() })) });
export const modelsQuery = z.object({
  workspace_id: uuid,
  model_types: z
    .union([modelType, z.array(modelType)])
    .optional()
    .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v])),
});
export const workspaceQuery = z.object({ workspace_id: uuid });
export const modelsAnswer = z.object({ models: z.array(modelWithProvider) });
export const modelAnswer = z.object({ model: modelWithProvider });

/** A direct call to a model (the providers page's "try it", and integrators' single calls). */
export const invokeModelBody = z
  .object({
    fallback_model_id: uuid.optional(),
    // llm and llm-multimodal
    messages: z
      .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string().max(200_000) }).strict())
      .min(1)
      .max(500)
      .optional(),
    system: z.string().max(100_000).optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().min(1).max(200_000).optional(),
    images: z.array(z.string().max(15_000_000)).max(10).optional(),
    // text-embeddings (a list) and text-to-speech (one text)
    input: z.union([z.string().max(200_000), z.array(z.string().max(200_000)).min(1).max(2048)]).optional(),
    // text-to-image and text-to-video
    prompt: z.string().max(32_000).optional(),
    n: z.number().int().min(1).max(10).optional(),
    size: z.string().max(20).optional(),
    quality: z.string().max(20).optional(),
    style: z.string().max(20).optional(),
    seconds: z.number().int().min(1).max(60).optional(),
    // text-to-speech
    voice: z.string().max(40).optional(),
    response_format: z.string().max(10).optional(),
    speed: z.number().min(0.25).max(4).optional(),
    // speech-to-text: base64 or a data: URL
    audio: z.string().max(30_000_000).optional(),
    filename: z.string().max(200).optional(),
    language: z.string().max(10).optional(),
    // ocr: a data: URL or an http(s) URL
    image: z.string().max(15_000_000).optional(),
    // rerank
    query: z.string().max(10_000).optional(),
    documents: z.array(z.string().max(100_000)).min(1).max(1000).optional(),
    top_k: z.number().int().min(1).max(1000).optional(),
  })
  .strict();
export type InvokeModelBody = z.infer<typeof invokeModelBody>;

export const invokeModelAnswer = z.object({
  model_id: z.string(),
  model_type: modelType,
  /** True when the model failed and the fallback model answered. */
  fallback: z.boolean(),
  output: z.unknown(),
  usage: z.object({
    input_tokens: z.number(),
    output_tokens: z.number(),
    images: z.number(),
    seconds: z.number(),
  }),
  credits: z.number(),
  timings: z.object({ first_token_ms: z.number().nullable(), total_ms: z.number() }),
});
export type InvokeModelAnswer = z.infer<typeof invokeModelAnswer>;
