import type { UrlPolicy } from '@atelier/net';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdapters,
  creditsFor,
  ProviderError,
  suggestModelType,
  withFallback,
  type ChatEvent,
} from '../src';

const ANY: UrlPolicy = { mode: 'any' };

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());

const user = (content: string) => ({ role: 'user' as const, content });

describe('Anthropic (Messages API over HTTP)', () => {
  const anthropic = () =>
    createAdapters({
      urlPolicy: ANY,
      kind: 'anthropic',
      baseUrl: fake.url,
      apiKey: 'test-key',
      timeoutMs: 2000,
      maxRetries: 1,
    });

  it('answers whole with usage, the system prompt apart and the key in x-api-key', async () => {
    const result = await anthropic().chat!.complete({
      model: 'claude-sonnet-4-5',
      system: 'Be kind',
      messages: [user('hi claude')],
      temperature: 0.3,
    });
    expect(result.text).toBe('Echo: hi claude');
    expect(result.usage).toMatchObject({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('test-key');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.body).toMatchObject({ system: 'Be kind', max_tokens: 1024, temperature: 0.3 });
  });

  it('streams text deltas, then the whole result', async () => {
    const events: ChatEvent[] = [];
    for await (const event of anthropic().chat!.stream({
      model: 'claude-sonnet-4-5',
      messages: [user('one two three')],
    }))
      events.push(event);
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThanOrEqual(3);
    const done = events.at(-1)!;
    expect(done.type === 'done' && done.result.text).toBe('Echo: one two three');
    expect(done.type === 'done' && done.result.usage.outputTokens).toBeGreaterThan(0);
  });

  it('returns tool_use as tool calls (streamed too) and sends tool results back', async () => {
    const tools = [{ name: 'lookup', description: 'Looks up', parameters: { type: 'object' } }];
    fake.scriptToolCalls([{ name: 'lookup', arguments: { q: 'paris' } }]);
    const whole = await anthropic().chat!.complete({
      model: 'claude-sonnet-4-5',
      messages: [user('where')],
      tools,
    });
    expect(whole.toolCalls).toEqual([{ id: expect.any(String), name: 'lookup', arguments: { q: 'paris' } }]);
    expect((fake.requests.at(-1)!.body as { tools: unknown[] }).tools).toEqual([
      { name: 'lookup', description: 'Looks up', input_schema: { type: 'object' } },
    ]);

    fake.scriptToolCalls([{ name: 'lookup', arguments: { q: 'rome' } }]);
    const events: ChatEvent[] = [];
    for await (const event of anthropic().chat!.stream({
      model: 'claude-sonnet-4-5',
      messages: [user('where')],
      tools,
    }))
      events.push(event);
    const done = events.at(-1)!;
    expect(done.type === 'done' && done.result.toolCalls[0]?.arguments).toEqual({ q: 'rome' });

    const followUp = await anthropic().chat!.complete({
      model: 'claude-sonnet-4-5',
      messages: [
        user('where'),
        { role: 'assistant', content: '', toolCalls: whole.toolCalls },
        { role: 'tool', toolCallId: whole.toolCalls[0]!.id, content: 'Paris' },
      ],
    });
    expect(followUp.text).toBe('Echo: Paris');
  });

  it('maps its errors', async () => {
    const error = await anthropic()
      .chat!.complete({ model: 'fail-401', messages: [user('x')] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'bad_credentials' });
    const missing = await anthropic()
      .chat!.complete({ model: 'missing-claude', messages: [user('x')] })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'model_not_found' });
  });
});

describe('Azure OpenAI', () => {
  it('calls the deployment path with the api-key header and api-version', async () => {
    const azure = createAdapters({
      urlPolicy: ANY,
      kind: 'azure_openai',
      baseUrl: fake.url,
      apiKey: 'test-key',
      settings: { api_version: '2024-10-21' },
    });
    const result = await azure.chat!.complete({ model: 'my-gpt4o', messages: [user('hello azure')] });
    expect(result.text).toBe('Echo: hello azure');
    const sent = fake.requests.at(-1)!;
    expect(sent.path).toMatch(/^\/openai\/deployments\/my-gpt4o\/chat\/completions\?api-version=2024-10-21$/);
    expect(sent.headers['api-key']).toBe('test-key');
    let streamed = '';
    for await (const event of azure.chat!.stream({ model: 'my-gpt4o', messages: [user('stream azure')] }))
      if (event.type === 'text') streamed += event.text;
    expect(streamed).toBe('Echo: stream azure');
    expect(fake.requests.at(-1)!.path).toBe(
      '/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21',
    );
    expect(fake.requests.at(-1)!.headers['api-key']).toBe('test-key');
    const { vectors } = await azure.embeddings!.embed('my-embeddings', ['a', 'b']);
    expect(vectors).toHaveLength(2);
  });
});

describe('Mistral, Ollama, rerank', () => {
  it('Mistral reads documents with its OCR endpoint', async () => {
    const mistral = createAdapters({
      urlPolicy: ANY,
      kind: 'mistral',
      baseUrl: `${fake.url}/v1`,
      apiKey: 'test-key',
    });
    const result = await mistral.ocr!.read('mistral-ocr-latest', 'data:image/png;base64,AAAA');
    expect(result.text).toMatch(/OCR text/);
    expect(fake.requests.at(-1)!.body).toMatchObject({
      model: 'mistral-ocr-latest',
      document: { type: 'image_url' },
    });
  });

  it('OpenAI and Mistral chat and embed through their OpenAI-shaped APIs', async () => {
    for (const kind of ['openai', 'mistral'] as const) {
      const adapters = createAdapters({
        urlPolicy: ANY,
        kind,
        baseUrl: `${fake.url}/v1`,
        apiKey: 'test-key',
      });
      expect((await adapters.chat!.complete({ model: 'm', messages: [user(`hello ${kind}`)] })).text).toBe(
        `Echo: hello ${kind}`,
      );
      expect((await adapters.embeddings!.embed('e', ['x'])).vectors).toHaveLength(1);
      expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer test-key');
    }
    // Mistral offers no image or speech models here; the adapters say so by their absence.
    expect(createAdapters({ urlPolicy: ANY, kind: 'mistral', apiKey: 'k' }).images).toBeUndefined();
  });

  it('Ollama lists its local models from /api/tags and chats over /v1', async () => {
    const ollama = createAdapters({ urlPolicy: ANY, kind: 'ollama', baseUrl: `${fake.url}/v1` });
    expect((await ollama.listModels()).map((m) => m.name)).toContain('llama3.2:latest');
    // Ollama takes no key; the fake checks one, so give it the fake's for the chat.
    const chat = createAdapters({
      urlPolicy: ANY,
      kind: 'ollama',
      baseUrl: `${fake.url}/v1`,
      apiKey: 'test-key',
    }).chat!;
    expect((await chat.complete({ model: 'llama3.2', messages: [user('hey')] })).text).toBe('Echo: hey');
  });

  it('rerank orders documents by relevance', async () => {
    const rerank = createAdapters({
      urlPolicy: ANY,
      kind: 'rerank',
      baseUrl: `${fake.url}/v2`,
      apiKey: 'test-key',
    }).rerank!;
    const { results } = await rerank.rerank({
      model: 'rerank-v3.5',
      query: 'capital of france',
      documents: ['Bananas are yellow', 'Paris is the capital of France', 'France exports wine'],
      topK: 2,
    });
    expect(results[0]).toMatchObject({ index: 1 });
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
    expect(fake.requests.at(-1)!.body).toMatchObject({ top_n: 2 });
  });
});

describe('fallback, metering and type guesses', () => {
  it('a failing model is retried on the fallback, and the result says so', async () => {
    const adapters = createAdapters({
      urlPolicy: ANY,
      kind: 'openai_compatible',
      baseUrl: `${fake.url}/v1`,
      apiKey: 'test-key',
      maxRetries: 0,
    });
    const run = (model: string) => () => adapters.chat!.complete({ model, messages: [user('save me')] });
    const saved = await withFallback(run('fail-500'), run('gpt-4o-mini'));
    expect(saved).toMatchObject({
      fallback: true,
      value: { text: 'Echo: save me' },
      primaryError: { code: 'provider_error' },
    });
    const direct = await withFallback(run('gpt-4o-mini'), run('fail-500'));
    expect(direct.fallback).toBe(false);
    await expect(withFallback(run('fail-500'), undefined)).rejects.toMatchObject({ code: 'provider_error' });
  });

  it('credits: tokens per 1k, plus per call, image and second', () => {
    const pricing = { input_per_1k: 1, output_per_1k: 2, per_call: 0.5, per_image: 3, per_second: 0.1 };
    expect(creditsFor(pricing, { inputTokens: 1500, outputTokens: 500 })).toBe(1.5 + 1 + 0.5);
    expect(creditsFor(pricing, { images: 2 })).toBe(6.5);
    expect(creditsFor(pricing, { seconds: 8 })).toBe(1.3);
  });

  it('guesses model types from names', () => {
    expect(suggestModelType('text-embedding-3-small')).toBe('text-embeddings');
    expect(suggestModelType('whisper-1')).toBe('speech-to-text');
    expect(suggestModelType('tts-1-hd')).toBe('text-to-speech');
    expect(suggestModelType('dall-e-3')).toBe('text-to-image');
    expect(suggestModelType('sora-2')).toBe('text-to-video');
    expect(suggestModelType('rerank-v3.5')).toBe('rerank');
    expect(suggestModelType('gpt-4o')).toBe('llm-multimodal');
    expect(suggestModelType('mistral-small')).toBe('llm');
  });
});
