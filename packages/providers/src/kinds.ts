import type { ModelType, ProviderKind, ProviderKindInfo } from '@atelier/schemas';
import { modelTypes } from '@atelier/schemas/constants';

/** Every model type but rerank, which OpenAI-shaped APIs do not offer. */
const ALL_OPENAI: ModelType[] = modelTypes.filter((type) => type !== 'rerank');

/** What each kind of provider needs and offers. */
export const PROVIDER_KINDS: Record<ProviderKind, ProviderKindInfo> = {
  openai: {
    kind: 'openai',
    label: 'OpenAI',
    needs_api_key: true,
    needs_base_url: false,
    default_base_url: 'https://api.openai.com/v1',
    settings: [],
    model_types: ALL_OPENAI,
  },
  azure_openai: {
    kind: 'azure_openai',
    label: 'Azure OpenAI',
    needs_api_key: true,
    needs_base_url: true,
    default_base_url: null,
    settings: [{ name: 'api_version', label: 'API version', required: true, default: '2024-10-21' }],
    model_types: [
      'llm',
      'llm-multimodal',
      'ocr',
      'text-to-image',
      'speech-to-text',
      'text-to-speech',
      'text-embeddings',
    ],
  },
  anthropic: {
    kind: 'anthropic',
    label: 'Anthropic',
    needs_api_key: true,
    needs_base_url: false,
    default_base_url: 'https://api.anthropic.com',
    settings: [],
    model_types: ['llm', 'llm-multimodal', 'ocr'],
  },
  mistral: {
    kind: 'mistral',
    label: 'Mistral',
    needs_api_key: true,
    needs_base_url: false,
    default_base_url: 'https://api.mistral.ai/v1',
    settings: [],
    model_types: ['llm', 'llm-multimodal', 'ocr', 'text-embeddings'],
  },
  ollama: {
    kind: 'ollama',
    label: 'Ollama',
    needs_api_key: false,
    needs_base_url: false,
    default_base_url: 'http://localhost:11434/v1',
    settings: [],
    model_types: ['llm', 'llm-multimodal', 'ocr', 'text-embeddings'],
  },
  openai_compatible: {
    kind: 'openai_compatible',
    label: 'OpenAI-compatible (vLLM, LM Studio, Groq, Together, LiteLLM…)',
    needs_api_key: false,
    needs_base_url: true,
    default_base_url: null,
    settings: [],
    model_types: ALL_OPENAI,
  },
  rerank: {
    kind: 'rerank',
    label: 'Rerank API (Cohere, Jina)',
    needs_api_key: true,
    needs_base_url: false,
    default_base_url: 'https://api.cohere.com/v2',
    settings: [],
    model_types: ['rerank'],
  },
};

/** A first guess at a remote model's type from its name, to pre-fill the import dialog. */
export function suggestModelType(name: string): ModelType {
  const n = name.toLowerCase();
  if (/rerank/.test(n)) return 'rerank';
  if (/embed/.test(n)) return 'text-embeddings';
  if (/whisper|transcri/.test(n)) return 'speech-to-text';
  if (/tts|speech/.test(n)) return 'text-to-speech';
  if (/dall-e|image|flux|stable-diffusion/.test(n)) return 'text-to-image';
  if (/sora|video/.test(n)) return 'text-to-video';
  if (/ocr/.test(n)) return 'ocr';
  if (/vision|4o|4\.1|gpt-5|claude|llava|pixtral|gemma3|qwen.*vl/.test(n)) return 'llm-multimodal';
  return 'llm';
}
