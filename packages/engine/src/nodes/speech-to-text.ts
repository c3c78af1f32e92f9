import { NodeInputError } from '../errors';
import { extensionOf, fileBytes, toFileValue } from '../values/files';
import type { Impl } from './shared';

/** Speech-to-text APIs tell the format by the file name's extension, so a name without one gets it here. */
const EXTENSIONS: Record<string, string> = {
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/mp4': 'm4a',
  'audio/m4a': 'm4a',
  'audio/x-m4a': 'm4a',
  'video/mp4': 'mp4',
};

function uploadName(name: string, mimeType: string): string {
  if (extensionOf(name) !== '') return name;
  const extension = EXTENSIONS[mimeType.split(';')[0]!.trim().toLowerCase()];
  return extension ? `${name}.${extension}` : name;
}

/** Reads the audio (data: URL, or fetched through the host) and transcribes it. */
export const speechToText: Impl<'speech_to_text'> = {
  async run({ fields, services, signal }) {
    const file = toFileValue(fields.file, 'audio');
    if (!file) throw new NodeInputError('Invalid audio format');
    const { data, mimeType } = await fileBytes(file, services, signal);
    const result = await services.transcribe({
      modelId: fields.modelId,
      audio: { data, name: uploadName(file.name, mimeType), mimeType },
      language: fields.language || undefined,
      temperature: fields.temperature,
      signal,
    });
    return { text: result.text };
  },
};
