import type { ChatMessage, Usage } from './types';

// Loaded only when a provider reports no usage; the encoding data ships inside the package, so
// counting never downloads anything (air-gapped installations stay fast).
let encoder: Promise<(text: string) => number[]> | undefined;

async function countTokens(text: string): Promise<number> {
  encoder ??= import('gpt-tokenizer').then((m) => m.encode);
  return (await encoder)(text).length;
}

const messageText = (m: ChatMessage) =>
  typeof m.content === 'string'
    ? m.content
    : m.content.map((p) => (p.type === 'text' ? p.text : '')).join(' ');

/** The provider's figures when it gave them; otherwise counted with the o200k tokenizer. */
export async function usageOrCount(
  reported: Usage | null,
  prompt: { system?: string | undefined; messages: ChatMessage[] },
  output: string,
): Promise<Usage> {
  if (reported && (reported.inputTokens > 0 || reported.outputTokens > 0)) return reported;
  const input = [prompt.system ?? '', ...prompt.messages.map(messageText)].join('\n');
  return { inputTokens: await countTokens(input), outputTokens: await countTokens(output) };
}
