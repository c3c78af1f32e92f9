import type { ContentPart } from '@atelier/providers';
import { NodeInputError } from '../errors';
import { fileLocation, toFileValue } from '../values/files';
import { toChatMessages } from '../values/messages';
import type { Impl } from './shared';

/** Images from an image or image[] value: files, data: URLs or http(s) URLs. */
function imageParts(value: unknown): ContentPart[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    const file = toFileValue(item, 'image');
    if (!file || (file.mimeType !== '' && !file.mimeType.startsWith('image/'))) {
      throw new NodeInputError(Array.isArray(value) ? 'Invalid image array format' : 'Invalid image format');
    }
    return { type: 'image', url: fileLocation(file) };
  });
}

/** Like the LLM node, with the images after the prompt in the user's message. */
export const multimodalLlm: Impl<'multimodal_llm'> = {
  async run(ctx) {
    const { fields } = ctx;
    const result = await ctx.services.chat({
      modelId: fields.modelId,
      fallbackModelId: fields.fallbackModelId || undefined,
      system: fields.systemPrompt || undefined,
      messages: [
        ...toChatMessages(fields.pastMessageHistory),
        { role: 'user', content: [{ type: 'text', text: fields.prompt }, ...imageParts(fields.images)] },
      ],
      temperature: fields.temperature,
      signal: ctx.signal,
      onToken: (text) => ctx.emitText(text),
    });
    return { response: result.text, ...(result.usage ? { usage: result.usage } : {}) };
  },
};
