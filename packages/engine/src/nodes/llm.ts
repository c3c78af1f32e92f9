import { toChatMessages } from '../values/messages';
import type { Impl } from './shared';

/** System prompt, past messages, then the prompt; the answer streams out as it comes. */
export const llm: Impl<'llm'> = {
  async run(ctx) {
    const { fields } = ctx;
    const result = await ctx.services.chat({
      modelId: fields.modelId,
      fallbackModelId: fields.fallbackModelId || undefined,
      system: fields.systemPrompt || undefined,
      messages: [...toChatMessages(fields.pastMessageHistory), { role: 'user', content: fields.prompt }],
      temperature: fields.temperature,
      signal: ctx.signal,
      onToken: (text) => ctx.emitText(text),
    });
    return { response: result.text, ...(result.usage ? { usage: result.usage } : {}) };
  },
};
