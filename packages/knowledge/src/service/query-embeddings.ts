import { createHash } from 'node:crypto';
import type { ModelTarget } from '@atelier/metering';
import { LRUCache } from 'lru-cache';

/** How long a question's embedding is kept (as Dify keeps them: ten minutes). */
export const QUERY_CACHE_TTL_MS = 10 * 60_000;
/** The most numbers the kept embeddings hold together: about 32 MB (2,600 questions of 1,536 dimensions). */
export const QUERY_CACHE_MAX_NUMBERS = 4_000_000;

export interface QueryCacheOptions {
  ttlMs?: number;
  maxNumbers?: number;
}

/**
 * The embeddings of recent questions, by model and text. A question asked again (a help bot hears
 * "what are your opening hours?" all day) is searched without a provider call: no wait, no charge.
 * The key holds the model's and its provider's `updated_at`, so a model or provider saved since never
 * answers with a vector of before. Only a model the caller may use is looked up (the model calls check
 * its workspace first).
 */
export function createQueryEmbeddingCache(options: QueryCacheOptions = {}) {
  const cache = new LRUCache<string, number[]>({
    maxSize: options.maxNumbers ?? QUERY_CACHE_MAX_NUMBERS,
    sizeCalculation: (vector) => Math.max(1, vector.length),
    ttl: options.ttlMs ?? QUERY_CACHE_TTL_MS,
  });
  const key = (t: ModelTarget, text: string) =>
    `${t.model.id}:${t.model.updatedAt.getTime()}:${t.provider.updatedAt.getTime()}:` +
    createHash('sha256').update(text).digest('base64url');
  return {
    get: (t: ModelTarget, text: string) => cache.get(key(t, text)),
    set: (t: ModelTarget, text: string, vector: number[]) => void cache.set(key(t, text), vector),
  };
}
