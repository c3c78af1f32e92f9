import { fileFromBytes } from '../values/files';
import type { Impl } from './shared';

export const soraVideo: Impl<'sora_video'> = {
  async run({ fields, services, signal }) {
    const video = await services.video({
      modelId: fields.modelId,
      prompt: fields.prompt,
      seconds: Number(fields.seconds),
      size: fields.size,
      signal,
    });
    return { video: fileFromBytes('video.mp4', video.mimeType, video.data) };
  },
};
