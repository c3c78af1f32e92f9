import { NodeInputError } from '../errors';
import { fileBytes, toFileValue } from '../values/files';
import type { Impl } from './shared';

/** Reads the audio (data: URL, or fetched through the host) and transcribes it. */
export const speechToText: Impl<'speech_to_text'> = {
  async run({ fields, services, signal }) {
    const file = toFileValue(fields.file, 'audio');
    if (!file) throw new NodeInputError('Invalid audio format');
    const { data, mimeType } = await fileBytes(file, services, signal);
    const result = await services.transcribe({
      modelId: fields.modelId,
      audio: { data, name: file.name, mimeType },
      language: fields.language || undefined,
      temperature: fields.temperature,
      signal,
    });
    return { text: result.text };
  },
};
