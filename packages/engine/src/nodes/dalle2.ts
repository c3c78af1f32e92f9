import { imageSources, type Impl } from './shared';

export const dalle2: Impl<'dalle2'> = {
  async run({ fields, services, signal }) {
    const result = await services.image({
      modelId: fields.modelId,
      prompt: fields.prompt,
      n: fields.n,
      size: fields.size,
      signal,
    });
    const { sources } = imageSources(result);
    return { image: sources[0], images: sources };
  },
};
