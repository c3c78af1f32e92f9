import { ProviderError } from '../errors';
import { providerFetch } from '../http';
import { readSse } from '../sse';
import { usageOrCount } from '../tokens';
import type {
  ChatEvent,
  ChatMessage,
  ChatModel,
  ChatRequest,
  ContentPart,
  ProviderConfig,
  ToolCall,
} from '../types';

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
const VERSION = '2023-06-01';
const DEFAULT_MAX_TOKENS = 1024;

type Block =
  | { type: 'text'; text: string }
  | {
      type: 'image';
      source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };
    }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string };

function image(url: string): Block {
  const data = /^data:([^;]+);base64,(.*)$/s.exec(url);
  return data
    ? { type: 'image', source: { type: 'base64', media_type: data[1]!, data: data[2]! } }
    : { type: 'image', source: { type: 'url', url } };
}

const parts = (content: string | ContentPart[]): Block[] =>
  typeof content === 'string'
    ? [{ type: 'text', text: content }]
    : content.map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : image(p.url)));

/** The Messages API wants the system prompt apart and tool results as user turns. */
function toAnthropic(request: ChatRequest) {
  const system = [
    request.system,
    ...request.messages.filter((m) => m.role === 'system').map((m) => m.content as string),
  ]
    .filter(Boolean)
    .join('\n\n');
  const messages = request.messages
    .filter((m): m is Exclude<ChatMessage, { role: 'system' }> => m.role !== 'system')
    .map((m) => {
      if (m.role === 'user') return { role: 'user', content: parts(m.content) };
      if (m.role === 'tool')
        return {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content }],
        };
      const blocks: Block[] = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const c of m.toolCalls ?? [])
        blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments });
      return { role: 'assistant', content: blocks };
    });
  return {
    model: request.model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages,
    ...(system ? { system } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((t) => ({
            name: t.name,
            description: t.description,
            input_schema: t.parameters,
          })),
        }
      : {}),
  };
}

interface AnthropicMessage {
  content: Block[];
  stop_reason: string | null;
  usage?: { input_tokens: number; output_tokens: number };
}

/** Anthropic's Messages API over its documented HTTP interface, streamed and whole. */
export function anthropicChat(config: ProviderConfig): ChatModel {
  const base = (config.baseUrl || ANTHROPIC_BASE_URL).replace(/\/v1$/, '');
  const timeoutMs = config.timeoutMs ?? 60_000;
  const headers = { 'x-api-key': config.apiKey ?? '', 'anthropic-version': VERSION };
  const request = (body: object, model: string, signal: AbortSignal | undefined) =>
    providerFetch(`${base}/v1/messages`, {
      body,
      headers,
      timeoutMs,
      retries: config.maxRetries ?? 2,
      signal,
      model,
      policy: config.urlPolicy,
    });

  return {
    async complete(req, options) {
      const res = await request(toAnthropic(req), req.model, options?.signal);
      const message = (await res.json()) as AnthropicMessage;
      const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      const toolCalls: ToolCall[] = message.content.flatMap((b) =>
        b.type === 'tool_use' ? [{ id: b.id, name: b.name, arguments: b.input }] : [],
      );
      const reported = message.usage
        ? { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens }
        : null;
      return {
        text,
        toolCalls,
        usage: await usageOrCount(reported, req, text),
        finishReason: message.stop_reason ?? 'end_turn',
      };
    },

    async *stream(req, options): AsyncGenerator<ChatEvent> {
      const res = await request({ ...toAnthropic(req), stream: true }, req.model, options?.signal);
      let text = '';
      let finishReason = 'end_turn';
      let input = 0;
      let output = 0;
      const tools = new Map<number, { id: string; name: string; json: string }>();
      for await (const event of readSse(res, timeoutMs, options?.signal)) {
        const data = JSON.parse(event.data) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
        switch (data.type) {
          case 'message_start':
            input = data.message?.usage?.input_tokens ?? 0;
            break;
          case 'content_block_start':
            if (data.content_block?.type === 'tool_use') {
              tools.set(data.index, { id: data.content_block.id, name: data.content_block.name, json: '' });
            }
            break;
          case 'content_block_delta':
            if (data.delta?.type === 'text_delta') {
              text += data.delta.text;
              yield { type: 'text', text: data.delta.text };
            } else if (data.delta?.type === 'input_json_delta') {
              const tool = tools.get(data.index);
              if (tool) tool.json += data.delta.partial_json;
            }
            break;
          case 'message_delta':
            finishReason = data.delta?.stop_reason ?? finishReason;
            output = data.usage?.output_tokens ?? output;
            break;
          case 'error':
            throw new ProviderError(
              'provider_error',
              `The provider failed: ${data.error?.message ?? 'stream error'}`,
              true,
            );
        }
      }
      const toolCalls = [...tools.values()].map((t) => ({
        id: t.id,
        name: t.name,
        arguments: t.json ? JSON.parse(t.json) : {},
      }));
      const reported = input || output ? { inputTokens: input, outputTokens: output } : null;
      yield {
        type: 'done',
        result: { text, toolCalls, usage: await usageOrCount(reported, req, text), finishReason },
      };
    },
  };
}
