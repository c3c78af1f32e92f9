import { randomUUID } from 'node:crypto';
import {
  partsText,
  type AnswerSource,
  type ChatbotType,
  type ChatCompletionBody,
  type CompletionUsage,
  type InputPart,
  type OpenAiCitation,
  type OpenAiMessage,
} from '@atelier/schemas';
import { AppError } from '../errors';
import type { Turn } from './public-chat';

/** What an OpenAI chat completion request asks of a chatbot, in the public chat's terms. */
export interface CompletionTurn {
  message: string | InputPart[];
  earlier: Turn[];
  inputs: Record<string, unknown>;
}

const partsOf = (content: OpenAiMessage['content']): string | InputPart[] =>
  typeof content === 'string' || !content
    ? (content ?? '')
    : content.map((p) =>
        p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image', url: p.image_url.url },
      );

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads an OpenAI request: the last message is the end user's new message, the user and assistant
 * messages before it the conversation so far. System and developer messages are left out (the
 * chatbot's own instruction decides), as are tool messages. A workflow takes its input fields from
 * `metadata` and from a user message holding a JSON object (its `query`, if any, is the query).
 */
export function fromCompletionRequest(body: ChatCompletionBody, type: ChatbotType): CompletionTurn {
  const turns = body.messages.filter((m) => m.role === 'user' || m.role === 'assistant');
  const last = turns.at(-1);
  if (!last || last.role !== 'user') {
    throw new AppError(422, 'message_required', 'The last message must be the user’s message.');
  }
  const earlier = turns.slice(0, -1).map((m) => ({
    role: m.role === 'user' ? ('user' as const) : ('assistant' as const),
    content: partsText(m.content, '\n'),
  }));
  const inputs: Record<string, unknown> = { ...(body.metadata ?? {}) };
  let message = partsOf(last.content);
  if (type === 'workflow' && typeof message === 'string') {
    const parsed = parseJson(message);
    if (isPlainObject(parsed)) {
      Object.assign(inputs, parsed);
      message = typeof parsed.query === 'string' ? parsed.query : '';
    }
  }
  return { message, earlier, inputs };
}

function parseJson(text: string): unknown {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An answer's sources as Azure OpenAI's citations (see `openAiCitation`). */
export function citationsOf(sources: readonly AnswerSource[]): OpenAiCitation[] {
  return sources.map((s) => ({
    content: s.excerpt,
    title: s.filename ?? s.collection_name,
    filepath: s.filename,
    url: null,
    chunk_id: s.chunk_index === null ? null : String(s.chunk_index),
    score: s.score,
    collection_id: s.collection_id,
    collection_name: s.collection_name,
    document_id: s.document_id,
  }));
}

/** `{context: {citations}}` for a message or a delta when the answer has sources; nothing otherwise. */
export const contextOf = (sources: readonly AnswerSource[]) =>
  sources.length > 0 ? { context: { citations: citationsOf(sources) } } : {};

type Delta = { role?: 'assistant'; content?: string; context?: { citations: OpenAiCitation[] } };

/** The pieces of OpenAI's answers for one completion. */
export function completionShapes(model: string) {
  const id = `chatcmpl-${randomUUID().replace(/-/g, '')}`;
  const created = Math.floor(Date.now() / 1000);
  return {
    chunk: (delta: Delta, finishReason: 'stop' | null = null) => ({
      id,
      object: 'chat.completion.chunk' as const,
      created,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    }),
    usageChunk: (usage: CompletionUsage) => ({
      id,
      object: 'chat.completion.chunk' as const,
      created,
      model,
      choices: [],
      usage,
    }),
    completion: (
      content: string,
      usage: CompletionUsage,
      conversationId: string,
      sources: readonly AnswerSource[] = [],
    ) => ({
      id,
      object: 'chat.completion' as const,
      created,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant' as const, content, refusal: null, ...contextOf(sources) },
          finish_reason: 'stop' as const,
          logprobs: null,
        },
      ],
      usage,
      conversation_id: conversationId,
    }),
  };
}
