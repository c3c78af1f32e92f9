import { inflateSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bagOfWordsEmbedding, startFakeProvider, type FakeProvider } from '../src/fake-provider';

let provider: FakeProvider;
const BEARER = { authorization: 'Bearer test-key' };
const ANTHROPIC = { 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01' };

beforeEach(async () => {
  provider = await startFakeProvider();
});
afterEach(async () => {
  await provider.close();
});

function post(path: string, body: unknown, headers: Record<string, string> = BEARER, signal?: AbortSignal) {
  return fetch(`${provider.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

const chat = (body: Record<string, unknown>, signal?: AbortSignal) =>
  post('/v1/chat/completions', { model: 'gpt-4o-mini', ...body }, BEARER, signal);

interface Received {
  event?: string;
  data: string;
  at: number;
}

/** Reads a whole SSE body, noting when each event arrived. */
async function readSse(response: Response, stopAfter = Infinity): Promise<Received[]> {
  const decoder = new TextDecoder();
  const events: Received[] = [];
  let buffer = '';
  for await (const bytes of response.body!) {
    buffer += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const received: Received = { data: '', at: performance.now() };
      for (const line of buffer.slice(0, end).split('\n')) {
        if (line.startsWith('event: ')) received.event = line.slice(7);
        if (line.startsWith('data: ')) received.data += line.slice(6);
      }
      buffer = buffer.slice(end + 2);
      events.push(received);
      if (events.length >= stopAfter) return events;
    }
  }
  return events;
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('OpenAI chat completions', () => {
  it('echoes the last user message with usage, counting images', async () => {
    const response = await chat({
      messages: [
        { role: 'system', content: 'Be brief' },
        { role: 'user', content: 'first' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is here?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
      ],
    });
    expect(response.status).toBe(200);
    const body: any = await response.json();
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0].message).toMatchObject({
      role: 'assistant',
      content: 'Echo: What is here? [1 image(s)]',
    });
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.usage).toEqual({ prompt_tokens: 6, completion_tokens: 6, total_tokens: 12 });
    expect(provider.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(provider.requests[0]!.body).toMatchObject({ model: 'gpt-4o-mini' });
  });

  it('streams one chunk per word with the token delay between them, then usage and [DONE]', async () => {
    provider.setTokenDelay(40);
    const asked = performance.now();
    const response = await chat({
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'one two three' }],
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await readSse(response);
    expect(events.at(-1)!.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data));
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const words = chunks.map((chunk) => chunk.choices[0]?.delta.content).filter(Boolean);
    expect(words).toEqual(['Echo: ', 'one ', 'two ', 'three']);
    // The delay is waited before each word: the last one cannot arrive before four of them have passed
    // (a lower bound a loaded machine only makes later; gaps between arrivals are not measured, as a
    // busy reader can take two words at once).
    const lastWord = events.filter((_, i) => chunks[i]?.choices[0]?.delta.content).at(-1)!.at;
    expect(lastWord - asked).toBeGreaterThanOrEqual(4 * 40 - 5);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 4, total_tokens: 7 } });
    expect(chunks[0].usage).toBeNull();
  });

  it('answers with scripted tool calls, whole and streamed, then echoes the tool result', async () => {
    provider.scriptToolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }]);
    const whole: any = await (await chat({ messages: [{ role: 'user', content: 'weather?' }] })).json();
    expect(whole.choices[0].finish_reason).toBe('tool_calls');
    const call = whole.choices[0].message.tool_calls[0];
    expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });

    provider.scriptToolCalls([
      { name: 'a', arguments: { x: 1 } },
      { name: 'b', arguments: { y: 'two' } },
    ]);
    const events = await readSse(await chat({ stream: true, messages: [{ role: 'user', content: 'go' }] }));
    const calls: { id?: string; name?: string; arguments: string }[] = [];
    let finish: string | undefined;
    for (const event of events.slice(0, -1)) {
      const choice = JSON.parse(event.data).choices[0];
      finish = choice.finish_reason ?? finish;
      for (const delta of choice.delta.tool_calls ?? []) {
        calls[delta.index] ??= { arguments: '' };
        calls[delta.index]!.id ??= delta.id;
        calls[delta.index]!.name ??= delta.function.name;
        calls[delta.index]!.arguments += delta.function.arguments;
      }
    }
    expect(finish).toBe('tool_calls');
    expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['a', { x: 1 }],
      ['b', { y: 'two' }],
    ]);
    expect(calls[0]!.id).toMatch(/^call_/);

    const after: any = await (
      await chat({
        messages: [
          { role: 'user', content: 'weather?' },
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: call.id, content: 'sunny' },
        ],
      })
    ).json();
    expect(after.choices[0].message.content).toBe('Echo: sunny');
  });
});

describe('model switches and authentication', () => {
  const messages = [{ role: 'user', content: 'hi' }];

  it.each([
    ['fail-401', 401, 'invalid_api_key'],
    ['fail-404', 404, 'model_not_found'],
    ['missing-model', 404, 'model_not_found'],
    ['fail-429', 429, 'rate_limit_exceeded'],
    ['fail-500', 500, null],
  ])('%s answers %i in the OpenAI error shape', async (model, status, code) => {
    const response = await chat({ model, messages });
    expect(response.status).toBe(status);
    const body: any = await response.json();
    expect(body.error.code ?? null).toBe(code);
    expect(typeof body.error.message).toBe('string');
    if (status === 429) expect(response.headers.get('retry-after')).toBe('0');
    if (status === 404) expect(body.error.message).toBe(`The model \`${model}\` does not exist`);
  });

  it('rejects a missing or wrong key', async () => {
    const missing = await fetch(`${provider.url}/v1/models`);
    expect(missing.status).toBe(401);
    const wrong = await post('/v1/embeddings', { model: 'x', input: 'a' }, { authorization: 'Bearer nope' });
    expect(((await wrong.json()) as any).error.message).toBe('Incorrect API key provided');
  });

  it('flaky-429 fails only the first time for each exact name', async () => {
    expect((await chat({ model: 'flaky-429', messages })).status).toBe(429);
    expect((await chat({ model: 'flaky-429', messages })).status).toBe(200);
    expect((await post('/v1/embeddings', { model: 'flaky-429-b', input: 'a' })).status).toBe(429);
  });

  it('applies the switches to other endpoints too', async () => {
    expect((await post('/v1/embeddings', { model: 'fail-500', input: 'a' })).status).toBe(500);
    expect((await post('/v1/images/generations', { model: 'missing', prompt: 'p' })).status).toBe(404);
  });

  it('answers unknown paths with a JSON 404', async () => {
    const response = await post('/v1/nothing', {});
    expect(response.status).toBe(404);
    expect(((await response.json()) as any).error.message).toContain('/v1/nothing');
  });
});

describe('cancellation', () => {
  it('counts a stalled request the client gave up on', async () => {
    const controller = new AbortController();
    const pending = chat({ model: 'stall', messages: [{ role: 'user', content: 'hi' }] }, controller.signal);
    await waitFor(() => provider.requests.length === 1);
    expect(provider.aborted()).toBe(0);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await waitFor(() => provider.aborted() === 1);
  });

  it('stall-stream sends the first chunk, then nothing until the client leaves', async () => {
    const controller = new AbortController();
    const response = await chat(
      { model: 'stall-stream', stream: true, messages: [{ role: 'user', content: 'a b c' }] },
      controller.signal,
    );
    const [first] = await readSse(response, 1);
    expect(JSON.parse(first!.data).choices[0].delta.role).toBe('assistant');
    controller.abort();
    await waitFor(() => provider.aborted() === 1);
  });

  it('counts a slow stream cut off halfway', async () => {
    provider.setTokenDelay(50);
    const controller = new AbortController();
    const response = await chat(
      { stream: true, messages: [{ role: 'user', content: 'many words to stream here' }] },
      controller.signal,
    );
    await readSse(response, 2);
    controller.abort();
    await waitFor(() => provider.aborted() === 1);
  });
});

describe('embeddings', () => {
  it('places similar sentences closer than unrelated ones, as floats or base64', async () => {
    const input = ['The cat sat on the mat', 'A cat sat on a mat', 'Quarterly revenue grew strongly'];
    const response = await post('/v1/embeddings', { model: 'text-embedding-3-small', input });
    const body: any = await response.json();
    expect(body).toMatchObject({
      object: 'list',
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 16 },
    });
    const [cat, cat2, revenue] = body.data.map((item: any) => item.embedding as number[]);
    expect(cat).toHaveLength(64);
    expect(cosine(cat, cat2)).toBeGreaterThan(0.4);
    expect(cosine(cat, cat2)).toBeGreaterThan(cosine(cat, revenue) + 0.3);

    const encoded: any = await (
      await post('/v1/embeddings', { model: 'm', input: input[0], encoding_format: 'base64', dimensions: 16 })
    ).json();
    const bytes = Buffer.from(encoded.data[0].embedding, 'base64');
    const floats = Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
    expect(floats).toHaveLength(16);
    bagOfWordsEmbedding(input[0]!, 16).forEach((value, i) => expect(floats[i]).toBeCloseTo(value, 6));

    // A batch in base64 (written as bytes) has the list's whole shape, like the float answer.
    const batch: any = await (
      await post('/v1/embeddings', { model: 'm "é"', input, encoding_format: 'base64', dimensions: 16 })
    ).json();
    expect(batch).toMatchObject({
      object: 'list',
      model: 'm "é"',
      usage: { prompt_tokens: 16, total_tokens: 16 },
    });
    expect(batch.data.map((item: any) => [item.object, item.index])).toEqual([
      ['embedding', 0],
      ['embedding', 1],
      ['embedding', 2],
    ]);
    batch.data.forEach((item: any, n: number) => {
      const decoded = Buffer.from(item.embedding, 'base64');
      const expected = bagOfWordsEmbedding(input[n]!, 16);
      expected.forEach((value, i) => expect(decoded.readFloatLE(i * 4)).toBeCloseTo(value, 6));
    });
  });

  it('bagOfWordsEmbedding is deterministic and unit length', () => {
    const vector = bagOfWordsEmbedding('Hello, world! hello', 32);
    expect(vector).toEqual(bagOfWordsEmbedding('hello WORLD hello', 32));
    expect(cosine(vector, vector)).toBeCloseTo(1, 10);
  });
});

describe('media endpoints', () => {
  it('generates PNGs of the requested size, as base64 or a fetchable URL', async () => {
    const response = await post('/v1/images/generations', {
      model: 'dall-e-3',
      prompt: 'a red fox',
      size: '1792x1024',
      response_format: 'b64_json',
    });
    const body: any = await response.json();
    const png = Buffer.from(body.data[0].b64_json, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1792, 1024]);
    const idatLength = png.readUInt32BE(33);
    expect(inflateSync(png.subarray(41, 41 + idatLength))).toHaveLength(1024 * (1 + 1792 * 3));
    expect(body.data[0].revised_prompt).toContain('a red fox');

    const byUrl: any = await (
      await post('/v1/images/generations', { model: 'dall-e-2', prompt: 'x', n: 2 })
    ).json();
    expect(byUrl.data).toHaveLength(2);
    const image = await fetch(byUrl.data[1].url);
    expect(image.headers.get('content-type')).toBe('image/png');

    const tooMany = await post('/v1/images/generations', { model: 'dall-e-3', prompt: 'x', n: 2 });
    expect(tooMany.status).toBe(400);
  });

  it('speaks audio whose length follows the input', async () => {
    const speak = (input: string, response_format?: string) =>
      post('/v1/audio/speech', { model: 'tts-1', voice: 'alloy', input, response_format });
    const short = await speak('Hello there');
    expect(short.headers.get('content-type')).toBe('audio/mpeg');
    const long = await speak('Hello there, this sentence is quite a bit longer than the first');
    expect((await long.arrayBuffer()).byteLength).toBeGreaterThan((await short.arrayBuffer()).byteLength * 3);
    const wav = await speak('Hi', 'wav');
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(
      Buffer.from(await wav.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('RIFF');
  });

  it('transcribes a multipart upload, as JSON or plain text', async () => {
    const form = (format: string) => {
      const data = new FormData();
      data.append('file', new Blob([new Uint8Array(1234)], { type: 'audio/mpeg' }), 'memo.mp3');
      data.append('model', 'whisper-1');
      data.append('response_format', format);
      return data;
    };
    const send = (format: string) =>
      fetch(`${provider.url}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: BEARER,
        body: form(format),
      });
    expect(await (await send('json')).json()).toEqual({ text: 'Transcript of memo.mp3 (1234 bytes)' });
    expect(await (await send('text')).text()).toBe('Transcript of memo.mp3 (1234 bytes)');
    expect(provider.requests[0]!.body).toMatchObject({
      model: 'whisper-1',
      file: { filename: 'memo.mp3', size: 1234 },
    });
  });

  it('refuses an upload whose name has no audio extension, like OpenAI', async () => {
    const data = new FormData();
    data.append('file', new Blob([new Uint8Array(10)], { type: 'audio/wav' }), 'audio');
    data.append('model', 'whisper-1');
    const res = await fetch(`${provider.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: BEARER,
      body: data,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.message).toMatch(
      /^Invalid file format\. Supported formats: \['flac'/,
    );
  });

  it('makes video clients poll until the job completes', async () => {
    const created: any = await (
      await post('/v1/videos', { model: 'sora-2', prompt: 'waves', seconds: '8', size: '1280x720' })
    ).json();
    expect(created).toMatchObject({ object: 'video', status: 'queued', progress: 0, seconds: '8' });
    const get = (suffix = '') =>
      fetch(`${provider.url}/v1/videos/${created.id}${suffix}`, { headers: BEARER });
    expect((await get('/content')).status).toBe(400);
    expect(((await (await get()).json()) as any).status).toBe('in_progress');
    expect(((await (await get()).json()) as any).status).toBe('completed');
    const content = await get('/content');
    expect(content.headers.get('content-type')).toBe('video/mp4');
    expect(
      Buffer.from(await content.arrayBuffer())
        .subarray(4, 8)
        .toString(),
    ).toBe('ftyp');
  });

  it('reads documents with Mistral OCR', async () => {
    const image_url = `data:image/png;base64,${Buffer.alloc(30).toString('base64')}`;
    const body: any = await (
      await post('/v1/ocr', { model: 'mistral-ocr-latest', document: { type: 'image_url', image_url } })
    ).json();
    expect(body).toMatchObject({ pages: [{ index: 0, markdown: 'OCR text of 30 bytes' }] });
    expect(body.usage_info.pages_processed).toBe(1);
  });
});

describe('Azure OpenAI', () => {
  const azure = (deployment: string, headers: Record<string, string>, query = '?api-version=2024-10-21') =>
    post(
      `/openai/deployments/${deployment}/chat/completions${query}`,
      { messages: [{ role: 'user', content: 'hello' }] },
      headers,
    );

  it('uses the api-key header and the deployment as the model', async () => {
    const body: any = await (await azure('my-gpt', { 'api-key': 'test-key' })).json();
    expect(body).toMatchObject({ model: 'my-gpt', choices: [{ message: { content: 'Echo: hello' } }] });
    expect((await azure('my-gpt', BEARER)).status).toBe(401);
    expect((await azure('my-gpt', { 'api-key': 'test-key' }, '')).status).toBe(404);
    expect((await azure('fail-429', { 'api-key': 'test-key' })).status).toBe(429);
  });
});

describe('Anthropic messages', () => {
  const messages = (body: Record<string, unknown>, headers = ANTHROPIC) =>
    post('/v1/messages', { model: 'claude-haiku-4-5', max_tokens: 100, ...body }, headers);

  it('answers a whole message with usage', async () => {
    const body: any = await (
      await messages({
        system: 'Be kind',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi you' }] }],
      })
    ).json();
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Echo: Hi you' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 4, output_tokens: 3 },
    });
  });

  it('streams the documented events in order', async () => {
    const events = await readSse(
      await messages({ stream: true, messages: [{ role: 'user', content: 'a b' }] }),
    );
    expect(events.map((event) => event.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const data = events.map((event) => JSON.parse(event.data));
    expect(data.map((d) => d.type)).toEqual(events.map((event) => event.event));
    expect(data.filter((d) => d.delta?.type === 'text_delta').map((d) => d.delta.text)).toEqual([
      'Echo: ',
      'a ',
      'b',
    ]);
    expect(data.at(-2)).toMatchObject({ delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } });
  });

  it('streams scripted tool use as input_json_delta and echoes tool results', async () => {
    provider.scriptToolCalls([{ name: 'lookup', arguments: { q: 'fox' } }]);
    const events = await readSse(
      await messages({ stream: true, messages: [{ role: 'user', content: 'x' }] }),
    );
    const data = events.map((event) => JSON.parse(event.data));
    const start = data.find((d) => d.type === 'content_block_start');
    expect(start.content_block).toMatchObject({ type: 'tool_use', name: 'lookup', input: {} });
    const json = data.filter((d) => d.delta?.type === 'input_json_delta').map((d) => d.delta.partial_json);
    expect(JSON.parse(json.join(''))).toEqual({ q: 'fox' });
    expect(data.find((d) => d.type === 'message_delta').delta.stop_reason).toBe('tool_use');

    const result: any = await (
      await messages({
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', content: [{ ...start.content_block, input: { q: 'fox' } }] },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: start.content_block.id, content: 'found' }],
          },
        ],
      })
    ).json();
    expect(result.content[0].text).toBe('Echo: found');
  });

  it('reports errors in the Anthropic shape', async () => {
    const expectError = async (response: Response, status: number, type: string) => {
      expect(response.status).toBe(status);
      expect(((await response.json()) as any).error.type).toBe(type);
    };
    const hi = [{ role: 'user', content: 'hi' }];
    await expectError(
      await messages({ messages: hi }, { ...ANTHROPIC, 'x-api-key': 'bad' }),
      401,
      'authentication_error',
    );
    await expectError(await messages({ model: 'fail-404', messages: hi }), 404, 'not_found_error');
    await expectError(await messages({ model: 'fail-429', messages: hi }), 429, 'rate_limit_error');
    await expectError(await messages({ model: 'fail-500', messages: hi }), 500, 'api_error');
    await expectError(await messages({ max_tokens: undefined, messages: hi }), 400, 'invalid_request_error');
  });
});

describe('rerank and listings', () => {
  it('orders documents by the share of query words they contain', async () => {
    const documents = ['nothing relevant', 'the quick fox', 'a quick brown fox jumps'];
    for (const path of ['/v1/rerank', '/v2/rerank']) {
      const body: any = await (
        await post(path, { model: 'rerank-v3.5', query: 'quick brown fox', documents, top_n: 2 })
      ).json();
      expect(body.results).toEqual([
        { index: 2, relevance_score: 1 },
        { index: 1, relevance_score: 2 / 3 },
      ]);
      expect(body.meta.billed_units.search_units).toBe(1);
      expect(body.usage.total_tokens).toBe(13);
    }
  });

  it('lists OpenAI and Ollama models', async () => {
    const openai: any = await (await fetch(`${provider.url}/v1/models`, { headers: BEARER })).json();
    expect(openai.object).toBe('list');
    expect(openai.data.map((model: any) => model.id)).toEqual(
      expect.arrayContaining(['gpt-4o-mini', 'sora-2']),
    );
    const ollama: any = await (await fetch(`${provider.url}/api/tags`)).json();
    expect(ollama.models[0]).toMatchObject({ name: 'llama3.2:latest', details: { family: 'llama' } });
  });
});
