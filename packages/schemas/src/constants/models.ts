/** Model types and provider kinds. */

export const modelTypes = [
  'llm',
  'llm-multimodal',
  'ocr',
  'text-to-image',
  'text-to-video',
  'speech-to-text',
  'text-to-speech',
  'text-embeddings',
  'rerank',
] as const;
export type ModelType = (typeof modelTypes)[number];

export const providerKinds = [
  'openai',
  'azure_openai',
  'anthropic',
  'mistral',
  'ollama',
  'openai_compatible',
  'rerank',
] as const;
export type ProviderKind = (typeof providerKinds)[number];
