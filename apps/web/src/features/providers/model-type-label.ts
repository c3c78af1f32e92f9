import type { ModelType } from '@atelier/schemas';

/**
 * The model types in the order the selects show them. Kept here rather than imported from the schemas
 * package so that this chunk does not carry zod; a unit test checks it against the contract.
 */
export const MODEL_TYPES = [
  'llm',
  'llm-multimodal',
  'ocr',
  'text-to-image',
  'text-to-video',
  'speech-to-text',
  'text-to-speech',
  'text-embeddings',
  'rerank',
] as const satisfies readonly ModelType[];

/** The translation key of a model type's label (providers.modelTypes.*). */
export const modelTypeKey = (type: ModelType) => `providers.modelTypes.${type}` as const;

/** The translation key of a provider kind's label, with the API's label as the fallback. */
export const kindKey = (kind: string) => `providers.kinds.${kind}.label` as const;
export const kindHintKey = (kind: string) => `providers.kinds.${kind}.hint` as const;
