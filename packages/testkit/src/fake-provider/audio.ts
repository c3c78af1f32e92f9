import { invalid } from './errors';
import { requireModel, requireObject, requireString, sendBytes, sendJson } from './exchange';
import { paddedBytes, silentMp3, silentPcm, silentWav } from './media-bytes';
import { passModelSwitches } from './model-switches';
import type { Exchange } from './types';

const SPEECH_FORMATS: Record<string, { type: string; bytes: (seconds: number) => Buffer }> = {
  mp3: { type: 'audio/mpeg', bytes: silentMp3 },
  wav: { type: 'audio/wav', bytes: silentWav },
  pcm: { type: 'audio/pcm', bytes: silentPcm },
  opus: { type: 'audio/opus', bytes: (seconds) => paddedBytes('OggS', seconds * 4000) },
  aac: { type: 'audio/aac', bytes: (seconds) => paddedBytes('\xff\xf1', seconds * 4000) },
  flac: { type: 'audio/flac', bytes: (seconds) => paddedBytes('fLaC', seconds * 8000) },
};

/** POST /v1/audio/speech: silence whose length grows with the input (60 ms per character / speed). */
export async function speech(ex: Exchange): Promise<void> {
  const body = requireObject(ex.json);
  const model = requireModel(ex, body);
  const input = requireString(body, 'input');
  if (input.length > 4096) throw invalid("'input' is longer than 4096 characters.");
  requireString(body, 'voice');
  const format = SPEECH_FORMATS[String(body.response_format ?? 'mp3')];
  if (!format) throw invalid(`Invalid 'response_format': ${String(body.response_format)}.`);
  const speed = typeof body.speed === 'number' ? body.speed : 1;
  if (speed < 0.25 || speed > 4) throw invalid("'speed' must be between 0.25 and 4.");
  if (!(await passModelSwitches(ex, model, false))) return;
  sendBytes(ex.res, format.type, format.bytes((input.length * 0.06) / speed));
}

function subtitle(text: string, separator: ',' | '.'): string {
  return `00:00:00${separator}000 --> 00:00:01${separator}000\n${text}\n`;
}

// OpenAI tells the format by the file name's extension and refuses a name without a known one.
const TRANSCRIBABLE = ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm'];

/** POST /v1/audio/transcriptions and /v1/audio/translations (multipart/form-data). */
export function transcription(kind: 'Transcript' | 'Translation') {
  return async (ex: Exchange): Promise<void> => {
    const form = ex.form;
    if (!form) throw invalid('Expected a multipart/form-data body.');
    const file = form.get('file');
    if (!(file instanceof File)) throw invalid("Missing required parameter: 'file'.");
    const extension = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '';
    if (!TRANSCRIBABLE.includes(extension)) {
      throw invalid(
        `Invalid file format. Supported formats: [${TRANSCRIBABLE.map((f) => `'${f}'`).join(', ')}]`,
      );
    }
    const model = ex.deployment ?? requireString(Object.fromEntries(form), 'model');
    const format = String(form.get('response_format') ?? 'json');
    if (!(await passModelSwitches(ex, model, false))) return;
    const text = `${kind} of ${file.name} (${file.size} bytes)`;
    switch (format) {
      case 'json':
        return sendJson(ex.res, 200, { text });
      case 'text':
        return sendBytes(ex.res, 'text/plain; charset=utf-8', text);
      case 'srt':
        return sendBytes(ex.res, 'text/plain; charset=utf-8', `1\n${subtitle(text, ',')}\n`);
      case 'vtt':
        return sendBytes(ex.res, 'text/plain; charset=utf-8', `WEBVTT\n\n${subtitle(text, '.')}\n`);
      case 'verbose_json':
        return sendJson(ex.res, 200, {
          task: kind === 'Transcript' ? 'transcribe' : 'translate',
          language: String(form.get('language') ?? 'english'),
          duration: 1,
          text,
          segments: [{ id: 0, seek: 0, start: 0, end: 1, text, tokens: [], temperature: 0 }],
        });
      default:
        throw invalid(`Invalid 'response_format': ${format}.`);
    }
  };
}
