import { anthropicChat, ANTHROPIC_BASE_URL } from './anthropic/chat';
import { providerJson } from './http';
import { mistralOcr } from './mistral/ocr';
import { openaiChat } from './openai/chat';
import { call, DEFAULT_TIMEOUT_MS, openaiClient } from './openai/client';
import {
  openaiEmbeddings,
  openaiImages,
  openaiSpeech,
  openaiTranscription,
  openaiVideo,
  visionOcr,
} from './openai/media';
import { httpRerank } from './rerank/rerank';
import type { ProviderAdapters, ProviderConfig } from './types';

/** Builds the adapters a provider offers, by kind. */
export function createAdapters(config: ProviderConfig): ProviderAdapters {
  switch (config.kind) {
    case 'anthropic': {
      const chat = anthropicChat(config);
      const base = (config.baseUrl || ANTHROPIC_BASE_URL).replace(/\/v1$/, '');
      return {
        chat,
        ocr: visionOcr(chat),
        listModels: async (options) => {
          const answer = await providerJson<{ data: { id: string }[] }>(`${base}/v1/models`, {
            headers: { 'x-api-key': config.apiKey ?? '', 'anthropic-version': '2023-06-01' },
            timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            retries: config.maxRetries ?? 2,
            signal: options?.signal,
            policy: config.urlPolicy,
          });
          return answer.data.map((m) => ({ name: m.id }));
        },
      };
    }
    case 'rerank':
      // The rerank APIs have no listing endpoint: model names are typed in.
      return { rerank: httpRerank(config), listModels: async () => [] };
    default: {
      const client = openaiClient(config);
      const chat = openaiChat(client, config);
      const adapters: ProviderAdapters = {
        chat,
        embeddings: openaiEmbeddings(config),
        ocr: config.kind === 'mistral' ? mistralOcr(config) : visionOcr(chat),
        listModels: async (options) => {
          if (config.kind === 'ollama') {
            // Ollama lists its local models on its native API, beside the OpenAI-compatible /v1.
            const root = (config.baseUrl || 'http://localhost:11434/v1').replace(/\/v1\/?$/, '');
            const tags = await providerJson<{ models: { name: string }[] }>(`${root}/api/tags`, {
              timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
              retries: config.maxRetries ?? 2,
              signal: options?.signal,
              policy: config.urlPolicy,
            });
            return tags.models.map((m) => ({ name: m.name }));
          }
          const page = await call(undefined, config, () => client.models.list({ signal: options?.signal }));
          return page.data.map((m) => ({ name: m.id }));
        },
      };
      if (config.kind !== 'mistral' && config.kind !== 'ollama') {
        adapters.images = openaiImages(client, config);
        adapters.textToSpeech = openaiSpeech(client, config);
        adapters.speechToText = openaiTranscription(client, config);
        if (config.kind !== 'azure_openai') adapters.video = openaiVideo(client, config);
      }
      return adapters;
    }
  }
}
