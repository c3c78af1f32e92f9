import { imageSources, type Impl } from './shared';

export const dalle3: Impl<'dalle3'> = {
  async run({ fields, services, signal }) {
    const result = await services.image({
      modelId: fields.modelId,
      prompt: fields.prompt,
      n: 1,
      size: fields.size,
      quality: fields.quality,
      style: fields.style,
      signal,
    });
    const { sources, revised } = imageSources(result);
    return { image: sources[0], images: sources, revised_prompt: revised };
  },
};
