import { invalid } from './errors';
import { randomId, requireModel, requireObject, sendJson } from './exchange';
import { passModelSwitches } from './model-switches';
import { writeSse, type SseEvent } from './sse';
import { countWords, echoAnswer, promptWords, slices, wordChunks } from './text';
import type { Exchange } from './types';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

const event = (name: string, data: Record<string, unknown>): SseEvent => ({
  event: name,
  data: { type: name, ...data },
});

/** The named events of one content block: start, deltas (a word or a slice of JSON each), stop. */
function blockEvents(block: Block, index: number): SseEvent[] {
  if (block.type === 'text') {
    return [
      event('content_block_start', { index, content_block: { type: 'text', text: '' } }),
      ...wordChunks(block.text).map((text) =>
        event('content_block_delta', { index, delta: { type: 'text_delta', text } }),
      ),
      event('content_block_stop', { index }),
    ];
  }
  return [
    event('content_block_start', { index, content_block: { ...block, input: {} } }),
    ...slices(JSON.stringify(block.input)).map((partial_json) =>
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }),
    ),
    event('content_block_stop', { index }),
  ];
}

/** POST /v1/messages (Anthropic Messages API). */
export async function anthropicMessages(ex: Exchange): Promise<void> {
  const body = requireObject(ex.json);
  const model = requireModel(ex, body);
  if (typeof body.max_tokens !== 'number') throw invalid('max_tokens: Field required');
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('messages: Field required');
  const stream = body.stream === true;
  if (!(await passModelSwitches(ex, model, stream))) return;

  const script = ex.state.toolScripts.shift();
  const blocks: Block[] = script
    ? script.map((call) => ({
        type: 'tool_use',
        id: randomId('toolu_'),
        name: call.name,
        input: call.arguments,
      }))
    : [{ type: 'text', text: echoAnswer(messages) }];
  const stopReason = script ? 'tool_use' : 'end_turn';
  const inputTokens = promptWords(messages, body.system);
  const outputTokens = blocks.reduce(
    (sum, block) =>
      sum + (block.type === 'text' ? wordChunks(block.text).length : countWords(JSON.stringify(block.input))),
    0,
  );
  const message = {
    id: randomId('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content: blocks,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: outputTokens },
  };
  if (!stream) {
    sendJson(ex.res, 200, message);
    return;
  }

  const start = {
    ...message,
    content: [],
    stop_reason: null,
    usage: { input_tokens: inputTokens, output_tokens: 1 },
  };
  const [first, ...rest] = blocks.map(blockEvents);
  const events: SseEvent[] = [
    event('message_start', { message: start }),
    // The documented stream carries a ping after the first block starts; clients must skip it.
    ...(first ?? []).slice(0, 1),
    event('ping', {}),
    ...(first ?? []).slice(1),
    ...rest.flat(),
    event('message_delta', {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: outputTokens },
    }),
    event('message_stop', {}),
  ];
  await writeSse(ex, events, model === 'stall-stream');
}
