import { invalid } from './errors';
import { isRecord, nowSeconds, randomId, requireModel, requireObject, sendJson } from './exchange';
import { passModelSwitches } from './model-switches';
import { writeSse, type SseEvent } from './sse';
import { countWords, echoAnswer, promptWords, slices, wordChunks } from './text';
import type { Exchange, ScriptedToolCall } from './types';

const FINGERPRINT = 'fp_fake_provider';

interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

function toToolCalls(script: ScriptedToolCall[]): ToolCall[] {
  return script.map((call) => ({
    id: randomId('call_'),
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

/** POST /v1/chat/completions (also Azure's and every OpenAI-compatible server's). */
export async function chatCompletions(ex: Exchange): Promise<void> {
  const body = requireObject(ex.json);
  const model = requireModel(ex, body);
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw invalid("Invalid 'messages': expected a non-empty array.");
  }
  const stream = body.stream === true;
  if (!(await passModelSwitches(ex, model, stream))) return;

  const script = ex.state.toolScripts.shift();
  const toolCalls = script ? toToolCalls(script) : undefined;
  const text = toolCalls ? null : echoAnswer(messages);
  const completionTokens = toolCalls
    ? toolCalls.reduce((sum, call) => sum + countWords(`${call.function.name} ${call.function.arguments}`), 0)
    : wordChunks(text ?? '').length;
  const promptTokens = promptWords(messages);
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  const finishReason = toolCalls ? 'tool_calls' : 'stop';
  const id = randomId('chatcmpl-');
  const created = nowSeconds();

  if (!stream) {
    const message = toolCalls
      ? { role: 'assistant', content: null, tool_calls: toolCalls, refusal: null }
      : { role: 'assistant', content: text, refusal: null };
    sendJson(ex.res, 200, {
      id,
      object: 'chat.completion',
      created,
      model,
      system_fingerprint: FINGERPRINT,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      usage,
    });
    return;
  }

  const includeUsage = isRecord(body.stream_options) && body.stream_options.include_usage === true;
  const base = { id, object: 'chat.completion.chunk', created, model, system_fingerprint: FINGERPRINT };
  // With include_usage the real API puts `usage: null` on every chunk but the extra last one.
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
    data: {
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    },
  });
  const events: SseEvent[] = [];
  if (toolCalls) {
    events.push(chunk({ role: 'assistant', content: null, refusal: null }));
    toolCalls.forEach((call, index) => {
      const head = {
        index,
        id: call.id,
        type: 'function',
        function: { name: call.function.name, arguments: '' },
      };
      events.push(chunk({ tool_calls: [head] }));
      for (const piece of slices(call.function.arguments)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
  } else {
    events.push(chunk({ role: 'assistant', content: '', refusal: null }));
    for (const word of wordChunks(text ?? '')) events.push(chunk({ content: word }));
  }
  events.push(chunk({}, finishReason));
  if (includeUsage) events.push({ data: { ...base, choices: [], usage } });
  events.push({ data: '[DONE]' });
  await writeSse(ex, events, model === 'stall-stream');
}
