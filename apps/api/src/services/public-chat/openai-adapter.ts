import { randomUUID } from 'node:crypto';
import type {
  ChatbotType,
  ChatCompletionBody,
  CompletionUsage,
  InputPart,
  OpenAiMessage,
} from '@atelier/schemas';
import { AppError } from '../errors';
import type { Turn } from './public-chat';

/** What an OpenAI chat completion request asks of a chatbot, in the public chat's terms. */
export interface CompletionTurn {
  message: string | InputPart[];
  earlier: Turn[];
  inputs: Record<string, unknown>;
}

const textOf = (content: OpenAiMessage['content']) =>
  typeof content === 'string'
    ? content
    : (content ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');

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
    content: textOf(m.content),
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

/** The pieces of OpenAI's answers for one completion. */
export function completionShapes(model: string) {
  const id = `chatcmpl-${randomUUID().replace(/-/g, '')}`;
  const created = Math.floor(Date.now() / 1000);
  return {
    chunk: (delta: { role?: 'assistant'; content?: string }, finishReason: 'stop' | null = null) => ({
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
    completion: (content: string, usage: CompletionUsage, conversationId: string) => ({
      id,
      object: 'chat.completion' as const,
      created,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant' as const, content, refusal: null },
          finish_reason: 'stop' as const,
          logprobs: null,
        },
      ],
      usage,
      conversation_id: conversationId,
    }),
  };
}
