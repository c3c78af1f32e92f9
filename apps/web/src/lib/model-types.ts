import type { ModelType } from '@atelier/schemas';

/**
 * The model types in the order the selects show them: the contract's list (`modelTypes` of
 * `@atelier/schemas`), written here rather than imported so that the pages using it do not carry zod; a
 * unit test checks it against the contract.
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

/** The types of model a simple chatbot can answer with. */
export const CHAT_MODEL_TYPES = ['llm', 'llm-multimodal'] as const satisfies readonly ModelType[];
