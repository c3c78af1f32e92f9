import { providerJson } from '../http';
import type { ProviderConfig, RerankModel } from '../types';

export const RERANK_BASE_URL = 'https://api.cohere.com/v2';

interface RerankAnswer {
  results: { index: number; relevance_score: number }[];
}

/** The `/rerank` API that Cohere (v2) and Jina share: {model, query, documents, top_n}. */
export function httpRerank(config: ProviderConfig): RerankModel {
  const base = config.baseUrl || RERANK_BASE_URL;
  return {
    async rerank(request, options) {
      const answer = await providerJson<RerankAnswer>(`${base}/rerank`, {
        body: {
          model: request.model,
          query: request.query,
          documents: request.documents,
          ...(request.topK ? { top_n: request.topK } : {}),
        },
        headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {},
        timeoutMs: config.timeoutMs ?? 60_000,
        retries: config.maxRetries ?? 2,
        signal: options?.signal,
        policy: config.urlPolicy,
        model: request.model,
      });
      return {
        results: answer.results
          .map((r) => ({ index: r.index, score: r.relevance_score }))
          .sort((a, b) => b.score - a.score),
      };
    },
  };
}
