import { meteredCall, type MeterScope, type ModelTarget } from '@atelier/metering';
import type { KnowledgeDeps } from '../facade';
import { KnowledgeError } from '../stores/vector-store';
import { createQueryEmbeddingCache, type QueryCacheOptions } from './query-embeddings';
import { UUID } from './records';

/** Texts per embedding call, and characters per call (long chunks make smaller batches). */
export const EMBED_BATCH_TEXTS = 128;
export const EMBED_BATCH_CHARS = 200_000;
/** Embedding calls in flight at once for one request. */
export const EMBED_CONCURRENCY = 3;

const modelNotFound = (modelId: string) =>
  new KnowledgeError(404, 'model_not_found', `The model ${modelId} does not exist in this workspace.`);

/** Cuts texts into batches of at most `maxTexts` texts and `maxChars` characters (a longer text is alone). */
export function batchTexts(
  texts: readonly string[],
  maxTexts = EMBED_BATCH_TEXTS,
  maxChars = EMBED_BATCH_CHARS,
) {
  const batches: { start: number; texts: string[] }[] = [];
  let current: { start: number; texts: string[] } | null = null;
  let chars = 0;
  texts.forEach((text, index) => {
    if (!current || current.texts.length >= maxTexts || (chars + text.length > maxChars && chars > 0)) {
      current = { start: index, texts: [] };
      batches.push(current);
      chars = 0;
    }
    current.texts.push(text);
    chars += text.length;
  });
  return batches;
}

/**
 * Runs `work` over `items` with at most `limit` in flight; the first failure stops the others' start and
 * is thrown once the work in flight has ended.
 */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  let firstError: unknown;
  const lane = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!, index);
      } catch (error) {
        if (!failed) firstError = error;
        failed = true;
      }
    }
  };
  // Every lane is awaited before a failure is answered: no work goes on behind the caller's back (an
  // ingestion's cleanup must run after its last write).
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failed) throw firstError;
  return results;
}

const preview = (texts: readonly string[]) => {
  const first = texts[0] ?? '';
  return `[${texts.length} text(s) to embed] ${first.length > 300 ? `${first.slice(0, 300)}…` : first}`;
};

/**
 * The workspace's models as the knowledge capability calls them: every embedding and rerank call is
 * one metered call (one inference-log row and one charge, also when it fails).
 */
export function createModelCalls(deps: KnowledgeDeps, queryCache: QueryCacheOptions = {}) {
  const questions = createQueryEmbeddingCache(queryCache);

  /** A model of the scope's workspace of the given type; one the caller already read is only checked. */
  async function target(
    scope: MeterScope,
    model: string | ModelTarget,
    type: 'text-embeddings' | 'rerank' | 'ocr',
  ) {
    let t: ModelTarget;
    if (typeof model !== 'string') {
      if (
        model.model.organizationId !== scope.organizationId ||
        model.model.workspaceId !== scope.workspaceId
      )
        throw modelNotFound(model.model.id);
      t = model;
    } else {
      if (!UUID.test(model)) throw modelNotFound(model);
      try {
        t = await deps.models.target(scope.organizationId, scope.workspaceId, model);
      } catch (error) {
        if ((error as { code?: string }).code === 'model_not_found') throw modelNotFound(model);
        throw error;
      }
    }
    if (t.model.modelType !== type) {
      throw new KnowledgeError(
        422,
        {
          rerank: 'not_a_rerank_model',
          ocr: 'not_an_ocr_model',
          'text-embeddings': 'not_an_embeddings_model',
        }[type],
        `The model "${t.model.name}" is a ${t.model.modelType} model, not ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} model.`,
      );
    }
    return t;
  }

  function describe(scope: MeterScope, what: string, t: ModelTarget) {
    return `${what} with ${t.model.name}${scope.chatbotName ? ` in ${scope.chatbotName}` : ''}`;
  }

  /** Embeds one batch: one metered call, tokens from the provider's usage (estimated when it gives none). */
  async function embedBatch(
    scope: MeterScope,
    t: ModelTarget,
    texts: string[],
    signal?: AbortSignal,
    onVectors?: (vectors: number[][]) => void,
  ) {
    const embeddings = deps.models.adaptersFor(t.provider).embeddings;
    if (!embeddings) {
      throw new KnowledgeError(422, 'unsupported_model', `The model "${t.model.name}" cannot embed text.`);
    }
    const result = await meteredCall<number[][]>({
      db: deps.db,
      scope,
      primary: t,
      prompt: preview(texts),
      userMessage: '',
      streamed: false,
      description: describe(scope, 'Embeddings', t),
      metadata: { texts: texts.length, ...(scope.chatbotId ? { chatbot_id: scope.chatbotId } : {}) },
      async call(target) {
        const { vectors, usage } = await embeddings.embed(target.model.modelName, texts, { signal });
        if (vectors.length !== texts.length) {
          throw new KnowledgeError(
            502,
            'embeddings_mismatch',
            `The embeddings model answered ${vectors.length} vectors for ${texts.length} texts.`,
          );
        }
        onVectors?.(vectors);
        const inputTokens =
          usage.inputTokens > 0
            ? usage.inputTokens
            : Math.ceil(texts.reduce((n, text) => n + text.length, 0) / 4);
        return {
          value: vectors,
          used: { inputTokens, outputTokens: 0 },
          response: `[${vectors.length} vector(s) of ${vectors[0]?.length ?? 0} dimensions]`,
        };
      },
    });
    return result.value;
  }

  /**
   * Embeds texts with a `text-embeddings` model of the scope's workspace: batches of at most
   * EMBED_BATCH_TEXTS texts and EMBED_BATCH_CHARS characters, each one metered call, EMBED_CONCURRENCY
   * in flight. With `onBatch`, each batch is handed over as it ends (in any order) and not kept, so a
   * large document never holds all its vectors at once; the answer is then empty. `onVectors` hears
   * each batch as soon as the provider answers, while its call is still being recorded (a query then
   * searches meanwhile); the answer still waits for the record. `model`: its id, or the model as the
   * caller already read it.
   */
  async function embedTexts(
    scope: MeterScope,
    model: string | ModelTarget,
    texts: readonly string[],
    signal?: AbortSignal,
    onBatch?: (start: number, vectors: number[][]) => Promise<void>,
    onVectors?: (start: number, vectors: number[][]) => void,
  ): Promise<number[][]> {
    if (texts.length === 0) return [];
    const t = await target(scope, model, 'text-embeddings');
    const out: number[][] = onBatch ? [] : new Array<number[]>(texts.length);
    await mapLimited(batchTexts(texts), EMBED_CONCURRENCY, async (batch) => {
      signal?.throwIfAborted();
      const vectors = await embedBatch(
        scope,
        t,
        batch.texts,
        signal,
        onVectors && ((v) => onVectors(batch.start, v)),
      );
      if (onBatch) await onBatch(batch.start, vectors);
      else vectors.forEach((v, i) => (out[batch.start + i] = v));
    });
    return out;
  }

  /**
   * Embeds a question to search with: from the recent questions' cache when it was asked of this model
   * lately, else one metered call, whose vector `onVector` hears as soon as the provider answers (the
   * search starts while the call is being recorded); the answer waits for the record.
   */
  async function embedQuery(
    scope: MeterScope,
    model: string | ModelTarget,
    text: string,
    signal?: AbortSignal,
    onVector?: (vector: number[]) => void,
  ): Promise<number[]> {
    const t = await target(scope, model, 'text-embeddings');
    const kept = questions.get(t, text);
    if (kept) {
      onVector?.(kept);
      return kept;
    }
    const [vector] = await embedBatch(scope, t, [text], signal, onVector && ((v) => onVector(v[0]!)));
    questions.set(t, text, vector!);
    return vector!;
  }

  /** Reranks documents for a query: one metered call; results best first. */
  async function rerank(
    scope: MeterScope,
    modelId: string,
    query: string,
    documents: string[],
    topK: number,
    signal?: AbortSignal,
  ): Promise<{ index: number; score: number }[]> {
    const t = await target(scope, modelId, 'rerank');
    const ranker = deps.models.adaptersFor(t.provider).rerank;
    if (!ranker)
      throw new KnowledgeError(422, 'unsupported_model', `The model "${t.model.name}" cannot rerank.`);
    const result = await meteredCall({
      db: deps.db,
      scope,
      primary: t,
      prompt: query,
      userMessage: query,
      streamed: false,
      description: describe(scope, 'Rerank', t),
      metadata: { documents: documents.length, ...(scope.chatbotId ? { chatbot_id: scope.chatbotId } : {}) },
      async call(target) {
        const answer = await ranker.rerank(
          { model: target.model.modelName, query, documents, topK },
          { signal },
        );
        return {
          value: answer.results,
          used: { calls: 1 },
          response: `[${answer.results.length} result(s)]`,
        };
      },
    });
    return result.value
      .filter((r) => Number.isInteger(r.index) && r.index >= 0 && r.index < documents.length)
      .sort((a, b) => b.score - a.score);
  }

  /**
   * Reads the text of a page image (a data URL) with an `ocr` model of the scope's workspace: one
   * metered call. Answers the text as the model gives it (Markdown for Mistral's OCR).
   */
  async function readImage(
    scope: MeterScope,
    model: string | ModelTarget,
    image: string,
    what: string,
    signal?: AbortSignal,
  ): Promise<string> {
    const t = await target(scope, model, 'ocr');
    const reader = deps.models.adaptersFor(t.provider).ocr;
    if (!reader)
      throw new KnowledgeError(422, 'unsupported_model', `The model "${t.model.name}" cannot read images.`);
    const result = await meteredCall({
      db: deps.db,
      scope,
      primary: t,
      prompt: `[${what}]`,
      userMessage: '',
      streamed: false,
      description: describe(scope, 'OCR', t),
      metadata: scope.chatbotId ? { chatbot_id: scope.chatbotId } : {},
      async call(target) {
        const answer = await reader.read(target.model.modelName, image, { signal });
        return { value: answer.text, used: answer.usage, response: answer.text };
      },
    });
    return result.value;
  }

  return { embedTexts, embedQuery, rerank, readImage, target };
}

export type ModelCalls = ReturnType<typeof createModelCalls>;
