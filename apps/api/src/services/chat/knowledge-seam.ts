import { ragCollections, type Db } from '@atelier/db';
import { answerSource, reciprocalRankFusion, searchesFor, type Knowledge } from '@atelier/knowledge';
import type { MeterScope } from '@atelier/metering';
import type { AnswerSource } from '@atelier/schemas';
import { and, eq, inArray } from 'drizzle-orm';

/** A passage found for a question, and where it came from. */
export interface RetrievedPassage {
  text: string;
  source: AnswerSource;
}

/** Where retrieved knowledge enters a simple chatbot's prompt. */
export interface KnowledgeRetriever {
  retrieve(input: {
    scope: MeterScope;
    collectionIds: string[];
    query: string;
    /** The user's questions before this one in the conversation, oldest first. */
    earlier?: readonly string[];
    signal: AbortSignal;
  }): Promise<RetrievedPassage[]>;
}

/** A passage as a ranked search found it (its id unique across collections). */
interface Ranked {
  id: string;
  score: number;
  passage: RetrievedPassage;
}

/** Passages given to the model at most, across all of a chatbot's collections. */
export const MAX_PASSAGES = 8;

/**
 * A chatbot's collections searched for its user's question (each with its own settings: top_k,
 * threshold, hybrid, rerank; a follow-up with the questions before it too, `searchesFor`), the answers
 * fused by reciprocal rank (as RAG-Fusion does): each search's best passages come first, whatever their
 * scores, which differ in kind from a collection to another (cosine, reranker, hybrid). A collection
 * deleted since the chatbot was saved is skipped; one that fails is reported and skipped: the answer
 * never waits on it.
 */
export function createKnowledgeRetriever(deps: {
  db: Db;
  knowledge: Knowledge;
  onError(error: unknown, context: string): void;
}): KnowledgeRetriever {
  return {
    async retrieve({ scope, collectionIds, query, earlier, signal }) {
      if (collectionIds.length === 0 || !query.trim()) return [];
      const searches = searchesFor(query, earlier);
      const collections = await deps.db
        .select({ id: ragCollections.id, name: ragCollections.name })
        .from(ragCollections)
        .where(
          and(
            inArray(ragCollections.id, collectionIds),
            eq(ragCollections.organizationId, scope.organizationId),
            eq(ragCollections.workspaceId, scope.workspaceId),
          ),
        );
      // One ranked list per collection and search, the search with the earlier questions first.
      const lists = await Promise.all(
        collections.flatMap((collection) =>
          [...searches].reverse().map(async (search): Promise<Ranked[]> => {
            if (signal.aborted) return [];
            try {
              const answer = await deps.knowledge.query(scope, collection.id, { query: search });
              return answer.documents.map((d) => ({
                id: `${collection.id}/${d.id}`,
                score: d.score,
                passage: { text: d.content, source: answerSource(collection, d) },
              }));
            } catch (error) {
              deps.onError(error, `retrieval from collection ${collection.id}`);
              return [];
            }
          }),
        ),
      );
      return reciprocalRankFusion(lists)
        .slice(0, MAX_PASSAGES)
        .map((ranked) => ranked.passage);
    },
  };
}

export const noKnowledge: KnowledgeRetriever = {
  retrieve: async () => [],
};

/** The system prompt: the instruction, then the passages found, clearly delimited. */
export function systemPrompt(instruction: string, passages: readonly RetrievedPassage[]): string {
  if (passages.length === 0) return instruction;
  const context = passages
    .map((p, i) => `[${i + 1}]${p.source.filename ? ` (${p.source.filename})` : ''} ${p.text}`)
    .join('\n\n');
  return `${instruction}\n\nUse the following context when it helps answer. Say so when it does not contain the answer.\n<context>\n${context}\n</context>`;
}
