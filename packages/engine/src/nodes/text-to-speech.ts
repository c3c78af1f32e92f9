import { fileFromBytes } from '../values/files';
import type { Impl } from './shared';

/** Gives the audio as a file value holding a data: URL. */
export const textToSpeech: Impl<'text_to_speech'> = {
  async run({ fields, services, signal }) {
    const audio = await services.speech({
      modelId: fields.modelId,
      input: fields.input,
      voice: fields.voice,
      format: fields.response_format,
      speed: fields.speed,
      signal,
    });
    return { audio: fileFromBytes(`speech.${fields.response_format}`, audio.mimeType, audio.data) };
  },
};
