import { describe, expect, it, vi } from 'vitest';
import {
  executionError,
  inferenceError,
  PROCESSING_TIMEOUT,
  responseError,
  StreamError,
  thrownError,
  TIMEOUT_ERROR,
} from '../src/features/chat/errors';
import { createStreamClient } from '../src/features/chat/stream-client';
import type { FlowStreamEvent } from '@atelier/schemas';
import { flowStep, simpleStep, type StreamSink } from '../src/features/chat/stream-events';
import { createApiClient, TOKEN_REFRESH_FAIL, TOKEN_REFRESHED } from '../src/lib/api-client';
import type { TokenStore } from '../src/lib/tokens';

/** A passage of an answer's context, as the streams send it. */
const GUIDE_SOURCE = {
  collection_id: 'c',
  collection_name: 'Docs',
  document_id: 'd',
  filename: 'guide.md',
  chunk_index: 0,
  score: 0.9,
  excerpt: 'x',
};

function memoryTokens(access: string | null, refresh: string | null) {
  const state = { access, refresh };
  const tokens: TokenStore = {
    access: () => state.access,
    refresh: () => state.refresh,
    set: (t) => Object.assign(state, { access: t.access_token, refresh: t.refresh_token }),
    clear: () => Object.assign(state, { access: null, refresh: null }),
  };
  return { tokens, state };
}

const encoder = new TextEncoder();
const sse = (...frames: string[]) =>
  new Response(
    new ReadableStream({
      start(c) {
        for (const frame of frames) c.enqueue(encoder.encode(frame));
        c.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

function client(
  fetchImpl: (url: string, init: RequestInit) => Promise<Response>,
  access = 'old',
  refresh = 'r1',
) {
  const { tokens, state } = memoryTokens(access, refresh);
  const events = new EventTarget();
  const seen: string[] = [];
  events.addEventListener(TOKEN_REFRESHED, () => seen.push(TOKEN_REFRESHED));
  events.addEventListener(TOKEN_REFRESH_FAIL, () => seen.push(TOKEN_REFRESH_FAIL));
  const onAuthLost = vi.fn();
  const fetch = vi.fn(fetchImpl);
  const fetchFn = fetch as unknown as typeof globalThis.fetch;
  const api = createApiClient({ baseUrl: 'http://api', tokens, events, onAuthLost, fetch: fetchFn });
  const stream = createStreamClient({ baseUrl: 'http://api', tokens, refresh: api.refresh, fetch: fetchFn });
  return { stream, api, fetch, state, seen, onAuthLost };
}

async function all(gen: AsyncGenerator<unknown>) {
  const out: unknown[] = [];
  for await (const item of gen) out.push(item);
  return out;
}

const signal = () => new AbortController().signal;

describe('the stream client', () => {
  it('POSTs with the bearer token and SSE headers, and yields JSON events up to [DONE]', async () => {
    const c = client(async () =>
      sse('data: {"type":"text","text":"a"}\n\n', 'data: [DONE]\n\n', 'data: {"late":1}\n\n'),
    );
    const events = await all(c.stream.stream('/x', { messages: [] }, signal()));
    expect(events).toEqual([{ type: 'text', text: 'a' }]);
    const [url, init] = c.fetch.mock.calls[0]!;
    expect(url).toBe('http://api/x');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({
      authorization: 'Bearer old',
      accept: 'text/event-stream',
      'content-type': 'application/json',
    });
    expect(init.body).toBe('{"messages":[]}');
  });

  it('on 401 refreshes once, broadcasts, and repeats the request once with the new token', async () => {
    const c = client(async (url, init) => {
      if (url.endsWith('/token/refresh')) return json(200, { access_token: 'new', refresh_token: 'r2' });
      const auth = (init.headers as Record<string, string>).authorization;
      return auth === 'Bearer new'
        ? sse('data: {"ok":true}\n\n')
        : json(401, { detail: 'expired', code: 'x' });
    });
    expect(await all(c.stream.stream('/x', {}, signal()))).toEqual([{ ok: true }]);
    expect(c.fetch.mock.calls.map(([url]) => url)).toEqual([
      'http://api/x',
      'http://api/token/refresh',
      'http://api/x',
    ]);
    expect(JSON.parse(c.fetch.mock.calls[1]![1].body as string)).toEqual({ refresh_token: 'r1' });
    expect(c.state).toEqual({ access: 'new', refresh: 'r2' });
    expect(c.seen).toEqual([TOKEN_REFRESHED]);
  });

  it('a stream and an ordinary request that meet 401 together share one refresh', async () => {
    const c = client(async (url, init) => {
      if (url.endsWith('/token/refresh')) {
        await new Promise((r) => setTimeout(r, 10));
        return json(200, { access_token: 'new', refresh_token: 'r2' });
      }
      const auth = (init.headers as Record<string, string>).authorization;
      if (auth !== 'Bearer new') return json(401, { detail: 'expired', code: 'x' });
      return url.endsWith('/stream') ? sse('data: {"ok":true}\n\n') : json(200, { fine: true });
    });
    const [streamed, answered] = await Promise.all([
      all(c.stream.stream('/stream', {}, signal())),
      c.api.get('/other'),
    ]);
    expect(streamed).toEqual([{ ok: true }]);
    expect(answered).toEqual({ fine: true });
    expect(c.fetch.mock.calls.filter(([url]) => url.endsWith('/token/refresh'))).toHaveLength(1);
  });

  it('a second 401 after the retry is an error, not another refresh', async () => {
    const c = client(async (url) =>
      url.endsWith('/token/refresh')
        ? json(200, { access_token: 'new', refresh_token: 'r2' })
        : json(401, { detail: 'Still not allowed', code: 'x' }),
    );
    const error = await all(c.stream.stream('/x', {}, signal())).catch((e: unknown) => e);
    expect((error as StreamError).info).toMatchObject({ detail: 'Still not allowed', status: 401 });
    expect(c.fetch.mock.calls.filter(([url]) => url.endsWith('/token/refresh'))).toHaveLength(1);
    expect(c.fetch).toHaveBeenCalledTimes(3);
  });

  it('a failed refresh clears the session and broadcasts the failure', async () => {
    const c = client(async (url) => (url.endsWith('/token/refresh') ? json(401, {}) : json(401, {})));
    const error = await all(c.stream.stream('/x', {}, signal())).catch((e: unknown) => e);
    expect((error as StreamError).info.key).toBe('chatPage.errors.sessionLost');
    expect(c.state).toEqual({ access: null, refresh: null });
    expect(c.seen).toEqual([TOKEN_REFRESH_FAIL]);
    expect(c.onAuthLost).toHaveBeenCalledOnce();
  });

  it('a non-2xx answer: its detail, else "SSE request failed: status text"; 504 is a timeout', async () => {
    const refused = client(async () => json(402, { detail: 'Not enough credits', code: 'no_credits' }));
    const e1 = (await all(refused.stream.stream('/x', {}, signal())).catch((e: unknown) => e)) as StreamError;
    expect(e1.info).toMatchObject({
      key: 'chatPage.errors.sseFailed',
      detail: 'Not enough credits',
      status: 402,
    });
    const plain = client(
      async () => new Response('oops', { status: 500, statusText: 'Internal Server Error' }),
    );
    const e2 = (await all(plain.stream.stream('/x', {}, signal())).catch((e: unknown) => e)) as StreamError;
    expect(e2.info).toEqual({
      key: 'chatPage.errors.sseFailed',
      params: { status: 500, text: 'Internal Server Error' },
      status: 500,
    });
    const slow = client(async () => json(504, { detail: 'Gateway Timeout' }));
    const e3 = (await all(slow.stream.stream('/x', {}, signal())).catch((e: unknown) => e)) as StreamError;
    expect(e3.info).toEqual(TIMEOUT_ERROR);
  });

  it('a null body is an error', async () => {
    const c = client(async () => new Response(null, { status: 200 }));
    const error = await all(c.stream.stream('/x', {}, signal())).catch((e: unknown) => e);
    expect((error as StreamError).info.key).toBe('chatPage.errors.noBody');
  });

  it('network failures before and during the stream come out as timeouts', async () => {
    const offline = client(async () => {
      throw new TypeError('Failed to fetch');
    });
    const e1 = await all(offline.stream.stream('/x', {}, signal())).catch((e: unknown) => e);
    expect(thrownError(e1, 'simple')).toEqual(PROCESSING_TIMEOUT);
    let pulls = 0;
    const broken = client(
      async () =>
        new Response(
          new ReadableStream({
            pull(c) {
              // The first read gets an event, the next one finds the connection broken.
              if (pulls++ === 0) c.enqueue(encoder.encode('data: {"type":"text","text":"a"}\n\n'));
              else c.error(new TypeError('network error'));
            },
          }),
        ),
    );
    const seen: unknown[] = [];
    const e2 = await (async () => {
      for await (const event of broken.stream.stream('/x', {}, signal())) seen.push(event);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ type: 'text', text: 'a' }]);
    expect(thrownError(e2, 'simple')).toEqual(PROCESSING_TIMEOUT);
  });

  it('a user abort ends the stream quietly', async () => {
    const controller = new AbortController();
    const c = client(
      async (_url, init) =>
        new Response(
          new ReadableStream({
            start(stream) {
              stream.enqueue(encoder.encode('data: {"n":1}\n\n'));
              init.signal!.addEventListener('abort', () =>
                stream.error(new DOMException('The user aborted a request.', 'AbortError')),
              );
            },
          }),
        ),
    );
    const seen: unknown[] = [];
    for await (const event of c.stream.stream('/x', {}, controller.signal)) {
      seen.push(event);
      controller.abort();
    }
    expect(seen).toEqual([{ n: 1 }]);
  });
});

describe('stream error mapping', () => {
  it('timeouts: network errors, chunked encoding, Failed to fetch, timeout and timed out', () => {
    for (const message of [
      'Failed to fetch',
      'NetworkError when attempting to fetch resource.',
      'net::ERR_INCOMPLETE_CHUNKED_ENCODING',
      'Request timeout',
      'The operation timed out',
      'Load failed',
    ]) {
      expect(thrownError(new Error(message), 'simple'), message).toEqual({
        key: 'chatPage.errors.processingTimeout',
        status: 504,
        timeout: true,
      });
    }
  });

  it('aborts give nothing; other errors fail the send for the type', () => {
    expect(thrownError(new DOMException('x', 'AbortError'), 'simple')).toBeNull();
    expect(thrownError(new Error('boom'), 'workflow')).toEqual({
      key: 'chatPage.errors.sendFailed',
      params: { type: 'workflow' },
    });
    const passed = new StreamError({ key: 'chatPage.errors.noBody' });
    expect(thrownError(passed, 'simple')).toEqual({ key: 'chatPage.errors.noBody' });
  });

  it('response errors: detail replaces the default text', () => {
    expect(responseError(409, 'Conflict', { detail: 'No model', code: 'model_missing' }).detail).toBe(
      'No model',
    );
    expect(responseError(409, 'Conflict', null)).toEqual({
      key: 'chatPage.errors.sseFailed',
      params: { status: 409, text: 'Conflict' },
      status: 409,
    });
    expect(responseError(504, '', { detail: 'x' })).toEqual(TIMEOUT_ERROR);
  });

  it('the inference-error marker; status 504 is a timeout', () => {
    expect(inferenceError({ message: '', status: 500 })).toEqual({
      key: 'chatPage.errors.inference',
      status: 500,
    });
    expect(inferenceError({ message: 'Rate limited', status: 429 }).detail).toBe('Rate limited');
    expect(inferenceError({ message: 'slow', status: 504 })).toEqual(TIMEOUT_ERROR);
  });

  it('execution errors: a string, an object with a message, or the default', () => {
    expect(executionError({ error: 'Bad node' })).toEqual({
      key: 'chatPage.errors.execution',
      detail: 'Bad node',
    });
    expect(executionError({ error: { message: 'Deep' } }).detail).toBe('Deep');
    expect(executionError({})).toEqual({ key: 'chatPage.errors.execution' });
  });
});

function sink() {
  const calls: [string, unknown][] = [];
  const s: StreamSink = {
    started: (id) => calls.push(['started', id]),
    text: (t) => calls.push(['text', t]),
    output: (t) => calls.push(['output', t]),
    progress: (n) => calls.push(['progress', n]),
    sources: (list) => calls.push(['sources', list.map((x) => x.filename)]),
  };
  return { s, calls };
}

describe('stream events', () => {
  it('simple: start, text appended, heartbeat ignored, end; the inference error throws', () => {
    const { s, calls } = sink();
    const steps = [
      { type: 'start', conversation_id: 'c', message_id: 'm' },
      { type: 'heartbeat' },
      {
        type: 'sources',
        sources: [GUIDE_SOURCE],
      },
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'something-new' },
      { type: 'end', fallback: false },
    ].map((e) => simpleStep(e, s));
    expect(steps.every((step) => step === 'continue')).toBe(true);
    expect(calls).toEqual([
      ['started', 'm'],
      ['sources', ['guide.md']],
      ['text', 'Hel'],
      ['text', 'lo'],
    ]);
    expect(() => simpleStep({ type: 'inference_error', message: 'x', code: 'c', status: 504 }, s)).toThrow(
      StreamError,
    );
  });

  it('flows: progress, node errors only logged, completion replaces and ends, execution error throws', () => {
    const { s, calls } = sink();
    const log = vi.fn();
    expect(flowStep({ event: 'heartbeat' }, s, log)).toBe('continue');
    expect(flowStep({ event: 'node_started', node_title: 'Retriever' }, s, log)).toBe('continue');
    expect(flowStep({ event: 'node_error', node_id: 'llm-1', error: 'x' }, s, log)).toBe('continue');
    expect(flowStep({ event: 'node_completed', node_id: 'llm-1' }, s, log)).toBe('continue');
    expect(flowStep({ event: 'execution_completed', output: { answer: 'Done!' } }, s, log)).toBe('done');
    expect(calls).toEqual([
      ['progress', 'Retriever'],
      ['progress', null],
      ['output', 'Done!'],
    ]);
    expect(log).toHaveBeenCalledWith('Error occurred in llm-1');
    expect(flowStep({ event: 'execution_completed' }, s, log)).toBe('done');
    expect(calls.at(-1)).toEqual(['output', null]);
    let thrown: unknown;
    try {
      flowStep({ event: 'execution_error', error: { message: 'Bad input' } }, s, log);
    } catch (e) {
      thrown = e;
    }
    expect((thrown as StreamError).info).toEqual({ key: 'chatPage.errors.execution', detail: 'Bad input' });
  });

  it("flows: Atelier's own events (typed by `type`), sources, text chunks appended, then the final output", () => {
    const { s, calls } = sink();
    const log = vi.fn();
    const events: FlowStreamEvent[] = [
      { type: 'run_started', run_id: 'r', conversation_id: 'c' },
      { type: 'node_started', node_id: 'llm_ab12', node_type: 'llm', label: 'Writer', iteration_index: null },
      {
        type: 'sources',
        node_id: 'knowledge_retrieve_ab12',
        sources: [GUIDE_SOURCE],
      },
      { type: 'text', node_id: 'llm_ab12', text: 'Hel' },
      { type: 'text', node_id: 'llm_ab12', text: 'lo' },
      {
        type: 'node_completed',
        node_id: 'llm_ab12',
        node_type: 'llm',
        duration_seconds: 0.1,
        outputs: {},
        iteration_index: null,
      },
      { type: 'heartbeat' },
    ];
    expect(events.map((e) => flowStep(e, s, log))).toEqual(Array(events.length).fill('continue'));
    const end: FlowStreamEvent = {
      type: 'execution_completed',
      run_id: 'r',
      outputs: { response: 'Hello!' },
      final_output: 'Hello!',
    };
    expect(flowStep(end, s, log)).toBe('done');
    expect(calls).toEqual([
      ['progress', 'Writer'],
      ['sources', ['guide.md']],
      ['text', 'Hel'],
      ['text', 'lo'],
      ['progress', null],
      ['output', 'Hello!'],
    ]);
    expect(() =>
      flowStep(
        { type: 'execution_error', run_id: 'r', error: 'The input "topic" is required.', status: 'failed' },
        s,
        log,
      ),
    ).toThrow(StreamError);
  });
});
