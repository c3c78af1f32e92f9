import type { FlowRunEvent } from '@atelier/schemas';
import { describe, expect, it } from 'vitest';
import type {
  HttpServiceRequest,
  ImageServiceRequest,
  SpeechServiceRequest,
  TranscribeServiceRequest,
} from '../src';
import { chatStub, node, reply, runNode, stubServices } from './helpers';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const bytes = (text: string) => new Uint8Array(Buffer.from(text));

describe('llm', () => {
  it('sends the system prompt, the past messages and the resolved prompt, and streams the answer', async () => {
    const { chat, requests } = chatStub((req) => {
      req.onToken?.('Bonjour');
      req.onToken?.(' !');
      return { text: 'Bonjour !', toolCalls: [], usage: { inputTokens: 12, outputTokens: 3 } };
    });
    const llm = node('llm', 'ab12', {
      modelId: 'model-1',
      fallbackModelId: 'model-2',
      systemPrompt: 'Answer in {{#input_in01.language#}}.',
      prompt: 'Greet {{#input_in01.query#}}',
      pastMessageHistory: '{{#input_in01.history#}}',
    });
    const events: FlowRunEvent[] = [];
    const { outputs } = await runNode(
      llm,
      stubServices({ chat }),
      {
        query: 'Ada',
        language: 'French',
        history: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
        ],
      },
      [{ name: 'language', type: 'string', isMandatory: true }],
      (e) => events.push(e),
    );
    expect(requests).toHaveLength(1);
    const { signal, onToken, ...request } = requests[0]!;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(onToken).toBeTypeOf('function');
    expect(request).toEqual({
      modelId: 'model-1',
      fallbackModelId: 'model-2',
      system: 'Answer in French.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'Greet Ada' },
      ],
      temperature: 0.7,
    });
    expect(outputs).toEqual({ response: 'Bonjour !', usage: { inputTokens: 12, outputTokens: 3 } });
    expect(events.filter((e) => e.type === 'text_chunk').map((e) => e.text)).toEqual(['Bonjour', ' !']);
  });

  it('leaves out an empty system prompt and fallback', async () => {
    const { chat, requests } = chatStub(() => reply('ok'));
    await runNode(
      node('llm', 'ab12', { modelId: 'm', prompt: 'x', temperature: '0.2' }),
      stubServices({ chat }),
    );
    expect(requests[0]).toMatchObject({ system: undefined, fallbackModelId: undefined, temperature: 0.2 });
  });
});

describe('multimodal_llm', () => {
  it('puts the images after the prompt in the user message', async () => {
    const { chat, requests } = chatStub(() => reply('A cat.'));
    const mm = node('multimodal_llm', 'mm01', {
      modelId: 'vision',
      prompt: 'What is this?',
      images: '{{#input_in01.photos#}}',
    });
    const { outputs } = await runNode(
      mm,
      stubServices({ chat }),
      { photos: [PNG, { name: 'b.webp', mimeType: 'image/webp', url: 'https://example.com/b.webp' }] },
      [{ name: 'photos', type: 'image[]', isMandatory: true }],
    );
    expect(requests[0]!.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', url: PNG },
          { type: 'image', url: 'https://example.com/b.webp' },
        ],
      },
    ]);
    expect(outputs).toEqual({ response: 'A cat.' });
  });

  it('refuses something that is not an image', async () => {
    const mm = node('multimodal_llm', 'mm01', { modelId: 'vision', prompt: 'x', images: 'just text' });
    const { error } = await runNode(mm, stubServices());
    expect(error).toMatch(/Invalid image format$/);
  });
});

describe('image generation', () => {
  it('dalle2 asks for n images of a size and gives URLs (data: URLs for base64)', async () => {
    const requests: ImageServiceRequest[] = [];
    const image = async (req: ImageServiceRequest) => {
      requests.push(req);
      return { images: [{ url: 'https://img.example/1.png' }, { b64: 'QUJD' }] };
    };
    const dalle = node('dalle2', 'd201', { modelId: 'dall-e-2', prompt: 'A fox', n: 2, size: '512x512' });
    const { outputs } = await runNode(dalle, stubServices({ image }));
    expect(requests[0]).toMatchObject({ modelId: 'dall-e-2', prompt: 'A fox', n: 2, size: '512x512' });
    expect(outputs).toEqual({
      image: 'https://img.example/1.png',
      images: ['https://img.example/1.png', 'data:image/png;base64,QUJD'],
    });
  });

  it('dalle3 sends the defaults quality standard, size 1024x1024, style vivid', async () => {
    const requests: ImageServiceRequest[] = [];
    const image = async (req: ImageServiceRequest) => {
      requests.push(req);
      return { images: [{ url: 'https://img.example/x.png', revisedPrompt: 'A red fox at dawn' }] };
    };
    const { outputs } = await runNode(
      node('dalle3', 'd301', { modelId: 'dall-e-3', prompt: 'A fox' }),
      stubServices({ image }),
    );
    const { signal: _signal, ...request } = requests[0]!;
    expect(request).toEqual({
      modelId: 'dall-e-3',
      prompt: 'A fox',
      n: 1,
      quality: 'standard',
      size: '1024x1024',
      style: 'vivid',
    });
    expect(outputs).toMatchObject({
      image: 'https://img.example/x.png',
      revised_prompt: 'A red fox at dawn',
    });
  });

  it('fails when the model gives no image', async () => {
    const image = async () => ({ images: [] });
    const { error } = await runNode(
      node('dalle3', 'd301', { modelId: 'm', prompt: 'x' }),
      stubServices({ image }),
    );
    expect(error).toMatch(/gave no image/);
  });
});

describe('speech', () => {
  it('text_to_speech sends voice alloy, format mp3 and speed 1 by default and gives an audio file', async () => {
    const requests: SpeechServiceRequest[] = [];
    const speech = async (req: SpeechServiceRequest) => {
      requests.push(req);
      return { data: bytes('ID3audio'), mimeType: 'audio/mpeg' };
    };
    const tts = node('text_to_speech', 'ts01', { modelId: 'tts-1', input: 'Read {{#input_in01.query#}}' });
    const { outputs } = await runNode(tts, stubServices({ speech }), { query: 'this' });
    expect(requests[0]).toMatchObject({
      modelId: 'tts-1',
      input: 'Read this',
      voice: 'alloy',
      format: 'mp3',
      speed: 1,
    });
    expect(outputs).toEqual({
      audio: {
        name: 'speech.mp3',
        mimeType: 'audio/mpeg',
        dataUrl: `data:audio/mpeg;base64,${Buffer.from('ID3audio').toString('base64')}`,
        size: 8,
      },
    });
  });

  it('speech_to_text decodes an uploaded file and sends its bytes with temperature 0', async () => {
    const requests: TranscribeServiceRequest[] = [];
    const transcribe = async (req: TranscribeServiceRequest) => {
      requests.push(req);
      return { text: 'hello world' };
    };
    const stt = node('speech_to_text', 'st01', {
      modelId: 'whisper',
      file: '{{#input_in01.audio#}}',
      language: 'en',
    });
    const audio = {
      name: 'note.webm',
      mimeType: 'audio/webm',
      dataUrl: `data:audio/webm;base64,${Buffer.from('OggS').toString('base64')}`,
    };
    const { outputs } = await runNode(stt, stubServices({ transcribe }), { audio }, [
      { name: 'audio', type: 'audio', isMandatory: true },
    ]);
    expect(requests[0]).toMatchObject({ modelId: 'whisper', language: 'en', temperature: 0 });
    expect(requests[0]!.audio.name).toBe('note.webm');
    expect(requests[0]!.audio.mimeType).toBe('audio/webm');
    expect(Buffer.from(requests[0]!.audio.data).toString()).toBe('OggS');
    expect(outputs).toEqual({ text: 'hello world' });
  });

  it('speech_to_text names a data: URL upload with the extension of its media type', async () => {
    const names: string[] = [];
    const transcribe = async (req: TranscribeServiceRequest) => {
      names.push(req.audio.name);
      return { text: 'ok' };
    };
    const stt = node('speech_to_text', 'st01', { modelId: 'whisper', file: '{{#input_in01.audio#}}' });
    for (const mime of ['audio/wav', 'audio/mpeg', 'audio/webm']) {
      await runNode(stt, stubServices({ transcribe }), { audio: `data:${mime};base64,AAAA` }, [
        { name: 'audio', type: 'audio', isMandatory: true },
      ]);
    }
    expect(names).toEqual(['audio.wav', 'audio.mp3', 'audio.webm']);
  });

  it('speech_to_text fetches a file given by URL through services.http', async () => {
    const calls: HttpServiceRequest[] = [];
    const http = async (req: HttpServiceRequest) => {
      calls.push(req);
      return { status: 200, headers: { 'content-type': 'audio/mpeg' }, body: bytes('MP3DATA') };
    };
    const transcribe = async (req: TranscribeServiceRequest) => ({
      text: Buffer.from(req.audio.data).toString(),
    });
    const stt = node('speech_to_text', 'st01', {
      modelId: 'whisper',
      file: 'https://files.example/memo.mp3',
    });
    const { outputs } = await runNode(stt, stubServices({ http, transcribe }));
    expect(calls[0]).toMatchObject({ method: 'GET', url: 'https://files.example/memo.mp3' });
    expect(outputs).toEqual({ text: 'MP3DATA' });
  });
});

describe('ocr and video', () => {
  it('ocr sends the document location', async () => {
    const requests: { modelId: string; document: string }[] = [];
    const ocr = async (req: { modelId: string; document: string }) => {
      requests.push(req);
      return { text: 'INVOICE 42' };
    };
    const { outputs } = await runNode(
      node('ocr', 'oc01', { modelId: 'mistral-ocr', file: PNG }),
      stubServices({ ocr }),
    );
    expect(requests[0]).toMatchObject({ modelId: 'mistral-ocr', document: PNG });
    expect(outputs).toEqual({ text: 'INVOICE 42' });
  });

  it('sora_video sends seconds as a number and gives a video file', async () => {
    const requests: { seconds: number; size: string; prompt: string }[] = [];
    const video = async (req: { seconds: number; size: string; prompt: string }) => {
      requests.push(req);
      return { data: bytes('mp4'), mimeType: 'video/mp4' };
    };
    const sora = node('sora_video', 'so01', { modelId: 'sora-2', prompt: 'Waves', seconds: '8' });
    const { outputs } = await runNode(sora, stubServices({ video }));
    expect(requests[0]).toMatchObject({ prompt: 'Waves', seconds: 8, size: '1280x720' });
    expect(outputs).toMatchObject({ video: { name: 'video.mp4', mimeType: 'video/mp4', size: 3 } });
  });
});

describe('reranker', () => {
  it('orders documents by score, keeps top_k and records the score', async () => {
    const requests: { documents: string[]; topK: number; query: string; modelId: string }[] = [];
    const rerank = async (req: (typeof requests)[number]) => {
      requests.push(req);
      return {
        results: [
          { index: 0, score: 0.1 },
          { index: 2, score: 0.9 },
          { index: 1, score: 0.5 },
        ],
      };
    };
    const docs = [{ pageContent: 'cats', metadata: { id: 1 } }, 'dogs', { page_content: 'foxes' }];
    const rr = node('reranker', 'rr01', { model_id: 'rerank-1', query: 'fox', documents: docs, top_k: 2 });
    const { outputs } = await runNode(rr, stubServices({ rerank }));
    expect(requests[0]).toMatchObject({
      modelId: 'rerank-1',
      query: 'fox',
      documents: ['cats', 'dogs', 'foxes'],
      topK: 2,
    });
    expect(outputs).toEqual({
      documents: [
        { pageContent: 'foxes', metadata: { relevance_score: 0.9 } },
        { pageContent: 'dogs', metadata: { relevance_score: 0.5 } },
      ],
    });
  });
});
