import { providerJson } from '../http';
import type { OcrModel, ProviderConfig } from '../types';
import { DEFAULT_BASE_URLS } from '../openai/client';

interface OcrAnswer {
  pages: { index: number; markdown: string }[];
  usage_info?: { pages_processed?: number };
}

/** Mistral's dedicated OCR endpoint (`POST /v1/ocr`), which reads images and PDFs. */
export function mistralOcr(config: ProviderConfig): OcrModel {
  const base = config.baseUrl || DEFAULT_BASE_URLS.mistral;
  return {
    async read(model, image, options) {
      const isPdf = image.startsWith('data:application/pdf') || /\.pdf($|\?)/i.test(image);
      const answer = await providerJson<OcrAnswer>(`${base}/ocr`, {
        body: {
          model,
          document: isPdf
            ? { type: 'document_url', document_url: image }
            : { type: 'image_url', image_url: image },
        },
        headers: { authorization: `Bearer ${config.apiKey ?? ''}` },
        timeoutMs: config.timeoutMs ?? 60_000,
        retries: config.maxRetries ?? 2,
        signal: options?.signal,
        policy: config.urlPolicy,
        model,
      });
      const text = [...answer.pages]
        .sort((a, b) => a.index - b.index)
        .map((p) => p.markdown)
        .join('\n\n');
      return { text, usage: { inputTokens: 0, outputTokens: 0 } };
    },
  };
}
