import type { UrlPolicy } from '@atelier/net';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bagOfWordsEmbedding, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapters, ProviderError, type ChatEvent, type ProviderConfig } from '../src';
import { decodeEmbedding } from '../src/openai/media';

const ANY: UrlPolicy = { mode: 'any' };

let fake: FakeProvider;
let config: ProviderConfig;

beforeAll(async () => {
  fake = await startFakeProvider();
  config = {
    urlPolicy: ANY,
    kind: 'openai_compatible',
    baseUrl: `${fake.url}/v1`,
    apiKey: 'test-key',
    timeoutMs: 2000,
    maxRetries: 2,
  };
});
afterAll(() => fake.close());

const user = (content: string) => ({ role: 'user' as const, content });

async function collect(stream: AsyncIterable<ChatEvent>) {
  const events: (ChatEvent & { at: number })[] = [];
  for await (const event of stream) events.push({ ...event, at: performance.now() });
  return events;
}

describe('OpenAI-compatible chat', () => {
  it('answers whole, with usage', async () => {
    const chat = createAdapters(config).chat!;
    const result = await chat.complete({
      model: 'gpt-4o-mini',
      messages: [user('hello there')],
      system: 'Be brief',
      temperature: 0.2,
    });
    expect(result.text).toBe('Echo: hello there');
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    const sent = fake.requests.at(-1)!.body as { messages: { role: string }[]; temperature: number };
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(sent.temperature).toBe(0.2);
  });

  it('streams: chunks arrive one after another before the answer ends', async () => {
    fake.setTokenDelay(40);
    try {
      const chat = createAdapters(config).chat!;
      const events = await collect(
        chat.stream({ model: 'gpt-4o-mini', messages: [user('one two three four')] }),
      );
      const texts = events.filter((e) => e.type === 'text');
      expect(texts.length).toBeGreaterThanOrEqual(4);
      expect(texts.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe('Echo: one two three four');
      const done = events.at(-1)!;
      expect(done.type).toBe('done');
      // The first words were there long before the last.
      expect(done.at - texts[0]!.at).toBeGreaterThan(100);
      if (done.type === 'done') expect(done.result.usage.inputTokens).toBeGreaterThan(0);
    } finally {
      fake.setTokenDelay(0);
    }
  });

  it('sends images to multimodal models', async () => {
    const chat = createAdapters(config).chat!;
    const result = await chat.complete({
      model: 'gpt-4o',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this' },
            { type: 'image', url: 'data:image/png;base64,AAAA' },
          ],
        },
      ],
    });
    expect(result.text).toBe('Echo: what is this [1 image(s)]');
  });

  it('returns scripted tool calls, whole and streamed, and takes tool results back', async () => {
    const chat = createAdapters(config).chat!;
    const tools = [
      {
        name: 'calculator',
        description: 'Computes',
        parameters: { type: 'object', properties: { expression: { type: 'string' } } },
      },
    ];
    fake.scriptToolCalls([{ name: 'calculator', arguments: { expression: '2+2' } }]);
    const whole = await chat.complete({ model: 'gpt-4o-mini', messages: [user('2+2?')], tools });
    expect(whole.toolCalls).toEqual([
      { id: expect.any(String), name: 'calculator', arguments: { expression: '2+2' } },
    ]);

    fake.scriptToolCalls([{ name: 'calculator', arguments: { expression: '3*3' } }]);
    const events = await collect(chat.stream({ model: 'gpt-4o-mini', messages: [user('3*3?')], tools }));
    const done = events.at(-1)!;
    expect(done.type === 'done' && done.result.toolCalls.map((c) => c.arguments)).toEqual([
      { expression: '3*3' },
    ]);

    const followUp = await chat.complete({
      model: 'gpt-4o-mini',
      tools,
      messages: [
        user('2+2?'),
        { role: 'assistant', content: '', toolCalls: whole.toolCalls },
        { role: 'tool', toolCallId: whole.toolCalls[0]!.id, content: '4' },
      ],
    });
    expect(followUp.text).toBe('Echo: 4');
  });
});

describe('errors, retries, timeouts and cancellation', () => {
  const failing = async (model: string, overrides: Partial<ProviderConfig> = {}) => {
    const chat = createAdapters({ ...config, ...overrides }).chat!;
    return chat.complete({ model, messages: [user('x')] }).then(
      () => null,
      (error: unknown) => error as ProviderError,
    );
  };

  it('maps bad credentials, unknown models and server errors to clear codes', async () => {
    expect(await failing('gpt-4o-mini', { apiKey: 'wrong' })).toMatchObject({ code: 'bad_credentials' });
    const missing = await failing('missing-model');
    expect(missing).toMatchObject({ code: 'model_not_found' });
    expect(missing?.detail).toContain('missing-model');
    expect(await failing('fail-500', { maxRetries: 0 })).toMatchObject({ code: 'provider_error' });
  });

  it('retries 429 with backoff, then succeeds or says rate limited', async () => {
    const before = fake.requests.length;
    const chat = createAdapters(config).chat!;
    const ok = await chat.complete({ model: 'flaky-429', messages: [user('again')] });
    expect(ok.text).toBe('Echo: again');
    expect(fake.requests.length - before).toBe(2);
    const start = fake.requests.length;
    expect(await failing('fail-429', { maxRetries: 2 })).toMatchObject({ code: 'rate_limited' });
    expect(fake.requests.length - start).toBe(3);
  });

  it('the streamed path maps the same failures and retries before the first byte', async () => {
    const streaming = async (model: string, overrides: Partial<ProviderConfig> = {}) => {
      const chat = createAdapters({ ...config, ...overrides }).chat!;
      return collect(chat.stream({ model, messages: [user('x')] })).then(
        () => null,
        (error: unknown) => error as ProviderError,
      );
    };
    expect(await streaming('gpt-4o-mini', { apiKey: 'wrong' })).toMatchObject({ code: 'bad_credentials' });
    const missing = await streaming('missing-model');
    expect(missing).toMatchObject({ code: 'model_not_found' });
    expect(missing?.detail).toContain('The provider said:');
    expect(await streaming('fail-500', { maxRetries: 0 })).toMatchObject({ code: 'provider_error' });
    const start = fake.requests.length;
    const events = await collect(
      createAdapters(config).chat!.stream({ model: 'flaky-429-stream', messages: [user('again please')] }),
    );
    expect(fake.requests.length - start).toBe(2);
    expect(events.at(-1)).toMatchObject({ type: 'done', result: { text: 'Echo: again please' } });
    expect(await streaming('gpt-4o-mini', { baseUrl: 'http://127.0.0.1:1/v1', maxRetries: 0 })).toMatchObject(
      {
        code: 'provider_unreachable',
      },
    );
  });

  it('a provider that never answers ends in a timeout', async () => {
    const error = await failing('stall', { timeoutMs: 300, maxRetries: 0 });
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'timeout' });
  });

  it('a stream that stalls mid-answer ends in a timeout', async () => {
    const chat = createAdapters({ ...config, timeoutMs: 300, maxRetries: 0 }).chat!;
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of chat.stream({ model: 'stall-stream', messages: [user('x y z')] })) {
        if (event.type === 'text') seen.push(event.text);
      }
    })().catch((e: unknown) => e);
    expect(seen.join('')).not.toContain('z'); // it never got to the end
    expect(error).toMatchObject({ code: 'timeout' });
  });

  it('cancelling aborts the call at the provider', async () => {
    fake.setTokenDelay(50);
    try {
      const chat = createAdapters(config).chat!;
      const controller = new AbortController();
      await new Promise((r) => setTimeout(r, 150)); // let earlier tests' closed sockets be counted first
      const abortedBefore = fake.aborted();
      const received: string[] = [];
      const error = await (async () => {
        for await (const event of chat.stream(
          { model: 'gpt-4o-mini', messages: [user('a b c d e f g h i j')] },
          { signal: controller.signal },
        )) {
          if (event.type === 'text') received.push(event.text);
          if (received.length === 2) controller.abort();
        }
      })().catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'cancelled' });
      // The fake counts the closed connection when it notices it; give a loaded machine time.
      for (let i = 0; i < 40 && fake.aborted() === abortedBefore; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(fake.aborted()).toBe(abortedBefore + 1);
    } finally {
      fake.setTokenDelay(0);
    }
  });
});

describe('the other model types', () => {
  it('embeddings are batched and meaningful', async () => {
    const embeddings = createAdapters(config).embeddings!;
    const before = fake.requests.length;
    const inputs = Array.from({ length: 200 }, (_, i) => `document number ${i}`);
    const { vectors, usage } = await embeddings.embed('text-embedding-3-small', inputs);
    expect(vectors).toHaveLength(200);
    expect(fake.requests.length - before).toBe(3);
    expect(usage.inputTokens).toBeGreaterThan(0);
    const [cat, kitten, car] = (
      await embeddings.embed('text-embedding-3-small', [
        'the cat sat on the mat',
        'a cat sat on a mat',
        'quarterly revenue report',
      ])
    ).vectors;
    const cos = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);
    expect(cos(cat!, kitten!)).toBeGreaterThan(cos(cat!, car!));
  });

  it('embeddings travel as base64 float32 and decode to the vectors the provider made', async () => {
    const embeddings = createAdapters(config).embeddings!;
    const { vectors } = await embeddings.embed('text-embedding-3-small', ['the cat sat on the mat']);
    expect((fake.requests.at(-1)!.body as { encoding_format?: string }).encoding_format).toBe('base64');
    const made = bagOfWordsEmbedding('the cat sat on the mat', 64);
    expect(vectors[0]).toEqual(made.map((v) => Math.fround(v)));
  });

  it('a server that ignores encoding_format and answers numbers (Ollama) still gives the vectors', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            data: [
              { object: 'embedding', index: 1, embedding: [0, 1] },
              { object: 'embedding', index: 0, embedding: [0.6, 0.8] },
            ],
            usage: { prompt_tokens: 4, total_tokens: 4 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const local = createAdapters({ ...config, baseUrl: `http://127.0.0.1:${port}/v1` }).embeddings!;
      const { vectors, usage } = await local.embed('nomic-embed-text', ['a', 'b']);
      expect(vectors).toEqual([
        [0.6, 0.8],
        [0, 1],
      ]);
      expect(usage.inputTokens).toBe(4);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('embedding failures: a 429 is retried, a refused key and an unknown model say so, a silent server times out', async () => {
    const answers: (number | 'silent')[] = [429, 200, 401, 404, 'silent'];
    const seen: { path: string; auth: string | undefined; encoding: string | undefined; body: unknown }[] =
      [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          path: req.url ?? '',
          auth: req.headers.authorization,
          encoding: req.headers['accept-encoding'],
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
        const status = answers.shift();
        if (status === 'silent') return;
        res.writeHead(status ?? 500, { 'content-type': 'application/json' });
        res.end(
          status === 200
            ? JSON.stringify({ data: [{ index: 0, embedding: [1, 0] }], usage: { prompt_tokens: 1 } })
            : JSON.stringify({ error: { message: `said ${status}` } }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const local = createAdapters({
        ...config,
        baseUrl: `http://127.0.0.1:${port}/v1/`,
        timeoutMs: 300,
        maxRetries: 1,
      }).embeddings!;
      expect((await local.embed('e-model', ['a'])).vectors).toEqual([[1, 0]]);
      expect(seen).toHaveLength(2);
      expect(seen[1]).toEqual({
        path: '/v1/embeddings',
        auth: 'Bearer test-key',
        encoding: 'identity',
        body: { model: 'e-model', input: ['a'], encoding_format: 'base64' },
      });
      await expect(local.embed('e-model', ['a'])).rejects.toMatchObject({
        code: 'bad_credentials',
        message: expect.stringContaining('said 401'),
      });
      await expect(local.embed('e-model', ['a'])).rejects.toMatchObject({
        code: 'model_not_found',
        message: expect.stringContaining('"e-model"'),
      });
      await expect(local.embed('e-model', ['a'])).rejects.toMatchObject({ code: 'timeout' });
      const cancelled = new AbortController();
      cancelled.abort();
      await expect(local.embed('e-model', ['a'], { signal: cancelled.signal })).rejects.toMatchObject({
        code: 'cancelled',
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("an embedding that is neither base64 nor numbers is the provider's error, not a wrong vector", () => {
    expect(decodeEmbedding(Buffer.from(new Float32Array([0.5, -2]).buffer).toString('base64'))).toEqual([
      0.5, -2,
    ]);
    for (const bad of [42, null, { values: [1] }, Buffer.from([1, 2, 3]).toString('base64')]) {
      expect(() => decodeEmbedding(bad)).toThrow(ProviderError);
    }
  });

  it('generates images with the DALL·E parameters', async () => {
    const images = createAdapters(config).images!;
    const result = await images.generate({
      model: 'dall-e-3',
      prompt: 'a red fox',
      size: '1024x1024',
      quality: 'standard',
      style: 'vivid',
    });
    expect(result.images).toHaveLength(1);
    expect(result.images[0]!.b64).toBeTruthy();
    expect(fake.requests.at(-1)!.body).toMatchObject({
      model: 'dall-e-3',
      quality: 'standard',
      style: 'vivid',
      size: '1024x1024',
    });
    await images.generate({ model: 'dall-e-2', prompt: 'a fox', n: 2, quality: 'hd', style: 'vivid' });
    const sent = fake.requests.at(-1)!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ n: 2 });
    expect(sent).not.toHaveProperty('quality'); // DALL·E 2 knows no quality or style
  });

  it('speaks and transcribes', async () => {
    const adapters = createAdapters(config);
    const speech = await adapters.textToSpeech!.speak({
      model: 'tts-1',
      input: 'Hello there',
      voice: 'alloy',
      format: 'mp3',
      speed: 1,
    });
    expect(speech.contentType).toBe('audio/mpeg');
    expect(speech.audio.length).toBeGreaterThan(0);
    const transcript = await adapters.speechToText!.transcribe({
      model: 'whisper-1',
      audio: speech.audio,
      filename: 'hello.mp3',
      temperature: 0,
    });
    expect(transcript.text).toBe(`Transcript of hello.mp3 (${speech.audio.length} bytes)`);
  });

  it('reads text from images with a vision model (OCR)', async () => {
    const ocr = createAdapters(config).ocr!;
    const result = await ocr.read('gpt-4o', 'data:image/png;base64,AAAA');
    expect(result.text).toMatch(/^Echo: Transcribe all the text/);
  });

  it('makes a video with Sora: create, poll, download', async () => {
    const video = createAdapters({ ...config, kind: 'openai' }).video!;
    const result = await video.generate({ model: 'sora-2', prompt: 'waves', seconds: 4 });
    expect(result.contentType).toBe('video/mp4');
    expect(result.video.length).toBeGreaterThan(0);
  }, 15_000);

  it('lists the provider models', async () => {
    const models = await createAdapters(config).listModels();
    expect(models.map((m) => m.name)).toContain('gpt-4o-mini');
  });
});
