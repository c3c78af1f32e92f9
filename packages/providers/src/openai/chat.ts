import type OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { cancelledError, ProviderError } from '../errors';
import { postSse } from '../http-stream';
import { usageOrCount } from '../tokens';
import type {
  ChatEvent,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResult,
  ProviderConfig,
  ToolCall,
} from '../types';
import { call, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, openaiTarget } from './client';

function toMessages(request: ChatRequest): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = request.system
    ? [{ role: 'system', content: request.system }]
    : [];
  for (const m of request.messages) out.push(toMessage(m));
  return out;
}

function toMessage(m: ChatMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user':
      return {
        role: 'user',
        content:
          typeof m.content === 'string'
            ? m.content
            : m.content.map((p) =>
                p.type === 'text'
                  ? { type: 'text' as const, text: p.text }
                  : { type: 'image_url' as const, image_url: { url: p.url } },
              ),
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: m.content,
        ...(m.toolCalls?.length
          ? {
              tool_calls: m.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: JSON.stringify(c.arguments) },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}

const toTools = (request: ChatRequest): ChatCompletionTool[] | undefined =>
  request.tools?.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));

function parseArguments(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw || '{}');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : { value };
  } catch {
    return { _raw: raw };
  }
}

/** One `chat.completion.chunk` of a stream, as far as we read it. */
interface CompletionChunk {
  choices?: {
    finish_reason?: string | null;
    delta?: {
      content?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
  }[];
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  error?: { message?: string };
}

function parseChunk(data: string): CompletionChunk {
  try {
    return JSON.parse(data) as CompletionChunk;
  } catch {
    throw new ProviderError('provider_error', 'The provider sent a stream chunk that is not JSON.');
  }
}

function params(request: ChatRequest) {
  const tools = toTools(request);
  return {
    model: request.model,
    messages: toMessages(request),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    ...(tools?.length ? { tools } : {}),
  };
}

export function openaiChat(client: OpenAI, config: ProviderConfig): ChatModel {
  const idleMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    async complete(request, options) {
      const res = await call(request.model, config, () =>
        client.chat.completions.create(params(request), { signal: options?.signal }),
      );
      const choice = res.choices[0];
      const text = choice?.message.content ?? '';
      const toolCalls: ToolCall[] = (choice?.message.tool_calls ?? []).flatMap((c) =>
        c.type === 'function'
          ? [{ id: c.id, name: c.function.name, arguments: parseArguments(c.function.arguments) }]
          : [],
      );
      const reported = res.usage
        ? { inputTokens: res.usage.prompt_tokens, outputTokens: res.usage.completion_tokens }
        : null;
      return {
        text,
        toolCalls,
        usage: await usageOrCount(reported, request, text),
        finishReason: choice?.finish_reason ?? 'stop',
      };
    },

    async *stream(request, options): AsyncGenerator<ChatEvent> {
      const target = openaiTarget(config, request.model, 'chat/completions');
      const events = postSse(target.url, {
        headers: target.headers,
        body: { ...params(request), stream: true, stream_options: { include_usage: true } },
        timeoutMs: idleMs,
        retries: config.maxRetries ?? DEFAULT_RETRIES,
        signal: options?.signal,
        model: request.model,
        policy: config.urlPolicy,
      });
      let text = '';
      let finishReason = 'stop';
      let reported: { inputTokens: number; outputTokens: number } | null = null;
      const calls = new Map<number, { id: string; name: string; args: string }>();
      for await (const event of events) {
        if (event.data === '[DONE]') break;
        const chunk = parseChunk(event.data);
        if (chunk.error)
          throw new ProviderError(
            'provider_error',
            `The provider failed mid-answer: ${chunk.error.message ?? 'unknown error'}`,
          );
        if (chunk.usage)
          reported = {
            inputTokens: chunk.usage.prompt_tokens,
            outputTokens: chunk.usage.completion_tokens,
          };
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        if (choice.finish_reason) finishReason = choice.finish_reason;
        const delta = choice.delta;
        if (delta?.content) {
          text += delta.content;
          yield { type: 'text', text: delta.content };
        }
        for (const tc of delta?.tool_calls ?? []) {
          const entry = calls.get(tc.index) ?? { id: '', name: '', args: '' };
          if (tc.id) entry.id = tc.id;
          if (tc.function?.name) entry.name += tc.function.name;
          if (tc.function?.arguments) entry.args += tc.function.arguments;
          calls.set(tc.index, entry);
        }
      }
      // A cancelled answer must not pass for a complete one.
      if (options?.signal?.aborted) throw cancelledError();
      const toolCalls = [...calls.values()].map((c) => ({
        id: c.id,
        name: c.name,
        arguments: parseArguments(c.args),
      }));
      const result: ChatResult = {
        text,
        toolCalls,
        usage: await usageOrCount(reported, request, text),
        finishReason,
      };
      yield { type: 'done', result };
    },
  };
}
