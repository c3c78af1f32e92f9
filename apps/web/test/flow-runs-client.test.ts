import type { FlowStreamEvent, RunDetail } from '@atelier/schemas';
import { describe, expect, it, vi } from 'vitest';
import { createStreamClient, StreamResponseError } from '../src/features/chat/stream-client';
import { runFailure } from '../src/features/flow-editor/runs/run-errors';
import { activeRunKey, createRunClient, type RunSink } from '../src/features/flow-editor/runs/run-stream';
import { createApiClient } from '../src/lib/api-client';
import type { TokenStore } from '../src/lib/tokens';

const encoder = new TextEncoder();
/** An SSE answer; with `drop` the body fails after its frames, as a broken connection does. */
function sse(frames: string[], drop = false) {
  return new Response(
    // Pulled one frame per read, so that the frames before a drop are delivered.
    new ReadableStream(
      {
        pull(c) {
          const next = frames.shift();
          if (next !== undefined) c.enqueue(encoder.encode(next));
          else if (drop) c.error(new TypeError('network error'));
          else c.close();
        },
      },
      { highWaterMark: 0 },
    ),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
}
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const frame = (id: string, event: FlowStreamEvent) => `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`;

const runStarted: FlowStreamEvent = { type: 'run_started', run_id: 'r1', conversation_id: null };
const nodeStarted: FlowStreamEvent = {
  type: 'node_started',
  node_id: 'a',
  node_type: 'llm',
  label: 'A',
  iteration_index: null,
};
const nodeDone: FlowStreamEvent = {
  type: 'node_completed',
  node_id: 'a',
  node_type: 'llm',
  duration_seconds: 1,
  outputs: { result: 'ok' },
  iteration_index: null,
};
const done: FlowStreamEvent = {
  type: 'execution_completed',
  run_id: 'r1',
  outputs: { result: 'ok' },
  final_output: 'ok',
};

const detail = (status: RunDetail['status']): RunDetail => ({
  id: 'r1',
  chatbot_id: 'c1',
  chatbot_type: 'workflow',
  conversation_id: null,
  trigger: 'test',
  status,
  config_version: null,
  inputs: {},
  outputs: status === 'succeeded' ? { result: 'ok' } : null,
  final_output: status === 'succeeded' ? 'ok' : null,
  error: null,
  started_by: null,
  created_at: '2026-01-01T00:00:00Z',
  started_at: null,
  finished_at: null,
  node_executions: [],
});

function setup(route: (url: string, init: RequestInit) => Promise<Response> | Response) {
  const tokens: TokenStore = { access: () => 'tok', refresh: () => 'r', set: () => {}, clear: () => {} };
  const fetch = vi.fn(async (url: string, init: RequestInit) => route(url, init));
  const fetchFn = fetch as unknown as typeof globalThis.fetch;
  const api = createApiClient({
    baseUrl: 'http://api',
    tokens,
    onAuthLost: vi.fn(),
    events: new EventTarget(),
    fetch: fetchFn,
  });
  const stream = createStreamClient({ baseUrl: 'http://api', tokens, refresh: api.refresh, fetch: fetchFn });
  const storage = new Map<string, string>();
  const store = {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => void storage.set(k, v),
    removeItem: (k: string) => void storage.delete(k),
  };
  const seen: { type: string; id?: string | undefined }[] = [];
  const loaded: RunDetail[] = [];
  const sink: RunSink = { event: (e, id) => seen.push({ type: e.type, id }), load: (d) => loaded.push(d) };
  const client = createRunClient({ stream, api, storage: store, retries: 2, sleep: async () => {} });
  const calls = () =>
    fetch.mock.calls.map(([url, init]) => {
      const headers = init.headers as Record<string, string> | undefined;
      return `${init.method} ${url.replace('http://api', '')}${headers?.['last-event-id'] ? ` after ${headers['last-event-id']}` : ''}`;
    });
  return { client, fetch, storage, seen, loaded, sink, calls };
}
const signal = () => new AbortController().signal;

describe('test runs and re-attaching', () => {
  it('a dropped stream re-attaches with Last-Event-ID, sees each event once, then loads the run', async () => {
    let rememberedDuringRun: string | undefined;
    const t = setup((url, init) => {
      if (url.endsWith('/chatbots/c1/runs'))
        return sse([frame('1', runStarted), frame('2', nodeStarted)], true);
      if (url.endsWith('/runs/r1/events')) {
        rememberedDuringRun = t.storage.get(activeRunKey('c1'));
        expect((init.headers as Record<string, string>)['last-event-id']).toBe('2');
        return sse([frame('3', nodeDone), frame('4', done), 'data: [DONE]\n\n']);
      }
      return json(200, detail('succeeded'));
    });
    const body = { inputs: { q: 1 }, configuration: { nodes: [], edges: [] } };
    expect(await t.client.start('c1', body, t.sink, signal())).toBe('r1');
    expect(t.calls()).toEqual(['POST /chatbots/c1/runs', 'GET /runs/r1/events after 2', 'GET /runs/r1']);
    expect(JSON.parse(t.fetch.mock.calls[0]![1].body as string)).toEqual(body);
    expect(t.seen.map((e) => e.id)).toEqual(['1', '2', '3', '4']);
    expect(rememberedDuringRun).toBe('r1');
    expect(t.storage.size).toBe(0);
    expect(t.loaded).toHaveLength(1);
  });

  it('a stream that ends quietly before the run ended also re-attaches; failures count only in a row', async () => {
    let attempt = 0;
    const t = setup((url) => {
      if (url.endsWith('/chatbots/c1/runs')) return sse([frame('1', runStarted)]);
      if (url.endsWith('/events')) {
        attempt += 1;
        if (attempt === 1) throw new TypeError('Failed to fetch');
        if (attempt === 2) return sse([frame('2', nodeStarted)], true);
        if (attempt === 3) return json(503, { detail: 'busy', code: 'x' });
        return sse([frame('3', done), 'data: [DONE]\n\n']);
      }
      return json(200, detail('succeeded'));
    });
    await t.client.start('c1', { inputs: {} }, t.sink, signal());
    expect(t.calls()).toEqual([
      'POST /chatbots/c1/runs',
      'GET /runs/r1/events after 1',
      'GET /runs/r1/events after 1',
      'GET /runs/r1/events after 2',
      'GET /runs/r1/events after 2',
      'GET /runs/r1',
    ]);
    expect(t.seen.map((e) => e.type)).toEqual(['run_started', 'node_started', 'execution_completed']);
  });

  it('after the attempts run out the run row decides: a finished run is loaded, a running one is lost', async () => {
    const finished = setup((url) =>
      url.endsWith('/runs')
        ? sse([frame('1', runStarted)])
        : url.endsWith('/events')
          ? sse([])
          : json(200, detail('failed')),
    );
    await finished.client.start('c1', { inputs: {} }, finished.sink, signal());
    expect(finished.calls().filter((c) => c.endsWith('events after 1'))).toHaveLength(3);
    expect(finished.loaded[0]?.status).toBe('failed');

    const running = setup((url) =>
      url.endsWith('/runs')
        ? sse([frame('1', runStarted)])
        : url.endsWith('/events')
          ? sse([])
          : json(200, detail('running')),
    );
    await expect(running.client.start('c1', { inputs: {} }, running.sink, signal())).rejects.toMatchObject({
      info: { key: 'flowRuns.errors.lost' },
    });
    // Still remembered: a reload may find it again.
    expect(running.storage.get(activeRunKey('c1'))).toBe('r1');
  });

  it('a refusal before the run started is thrown with its problems; a 402 reads as credits', async () => {
    const problems = [{ node_id: 'llm_1', field: 'modelId', code: 'required', message: 'Choose a model' }];
    const invalid = setup(() =>
      json(422, { detail: 'The flow cannot run.', code: 'invalid_flow', problems }),
    );
    const error = await invalid.client
      .start('c1', { inputs: {} }, invalid.sink, signal())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamResponseError);
    expect(runFailure(error)).toMatchObject({
      kind: 'invalid',
      detail: 'The flow cannot run.',
      problems: [{ nodeId: 'llm_1', field: 'modelId', message: 'Choose a model' }],
    });
    expect(invalid.calls()).toEqual(['POST /chatbots/c1/runs']);

    const poor = setup(() => json(402, { detail: 'Not enough credits.', code: 'insufficient_credits' }));
    const e2 = await poor.client.start('c1', { inputs: {} }, poor.sink, signal()).catch((e: unknown) => e);
    expect(runFailure(e2)).toMatchObject({ kind: 'credits', detail: 'Not enough credits.' });
  });

  it('a user abort ends quietly without re-attaching', async () => {
    const controller = new AbortController();
    const t = setup((url) => {
      if (url.endsWith('/runs')) {
        controller.abort();
        return sse([frame('1', runStarted)]);
      }
      return json(500, {});
    });
    await t.client.start('c1', { inputs: {} }, t.sink, controller.signal);
    expect(t.calls()).toEqual(['POST /chatbots/c1/runs']);
  });
});

describe('resuming after a reload', () => {
  it('a run still going is loaded then followed from its first event', async () => {
    const t = setup((url) => {
      if (url.endsWith('/events')) return sse([frame('1', runStarted), frame('2', done), 'data: [DONE]\n\n']);
      return json(200, detail(t.seen.length ? 'succeeded' : 'running'));
    });
    t.storage.set(activeRunKey('c1'), 'r1');
    expect(await t.client.resume('c1', t.sink, signal())).toBe('r1');
    expect(t.calls()).toEqual(['GET /runs/r1', 'GET /runs/r1/events', 'GET /runs/r1']);
    expect(t.loaded.map((d) => d.status)).toEqual(['running', 'succeeded']);
    expect(t.storage.size).toBe(0);
  });

  it('a finished run is only loaded; no remembered run does nothing', async () => {
    const t = setup(() => json(200, detail('cancelled')));
    expect(await t.client.resume('c1', t.sink, signal())).toBeNull();
    t.storage.set(activeRunKey('c1'), 'r1');
    expect(await t.client.resume('c1', t.sink, signal())).toBe('r1');
    expect(t.calls()).toEqual(['GET /runs/r1']);
    expect(t.storage.size).toBe(0);
  });

  it('lists, cancels and reads runs', async () => {
    const t = setup((url) =>
      url.includes('cancel') ? json(200, { run_id: 'r1', status: 'cancelled' }) : json(200, { runs: [] }),
    );
    expect(await t.client.list('c1', { limit: 20, status: 'failed' })).toEqual([]);
    expect(await t.client.cancel('r1')).toEqual({ run_id: 'r1', status: 'cancelled' });
    expect(t.calls()).toEqual(['GET /chatbots/c1/runs?limit=20&status=failed', 'POST /runs/r1/cancel']);
  });
});

describe('the stream client GET mode', () => {
  it('sends Last-Event-ID without a body and yields event ids', async () => {
    const t = setup(() =>
      sse(['id: 7\ndata: {"type":"heartbeat"}\n\n', 'data: {"a":1}\n\n', 'data: [DONE]\n\n']),
    );
    const stream = createStreamClient({
      baseUrl: 'http://api',
      tokens: { access: () => 'tok', refresh: () => null, set: () => {}, clear: () => {} },
      refresh: async () => {},
      fetch: t.fetch as unknown as typeof fetch,
    });
    const out = [];
    for await (const e of stream.events('/runs/r1/events', { method: 'GET', lastEventId: '6' }, signal()))
      out.push(e);
    expect(out).toEqual([
      { id: '7', data: { type: 'heartbeat' } },
      { id: '7', data: { a: 1 } },
    ]);
    const init = t.fetch.mock.calls[0]![1];
    expect(init).toMatchObject({
      method: 'GET',
      headers: { 'last-event-id': '6', accept: 'text/event-stream', authorization: 'Bearer tok' },
    });
    expect(init.body).toBeUndefined();
  });
});

describe('the app client bound to the run store', () => {
  it('startTestRun streams into the store; resumeActiveRun re-attaches after a reload', async () => {
    const { resumeActiveRun, startTestRun } = await import('../src/features/flow-editor/runs/run-client');
    const { useRunStore } = await import('../src/features/flow-editor/runs/run-store');
    let dropped = false;
    const fetchMock = vi.fn(async (url: string) => {
      if (url.endsWith('/chatbots/c1/runs'))
        return sse([frame('1', runStarted), frame('2', nodeStarted)], true);
      if (url.endsWith('/runs/r1/events')) {
        if (!dropped) {
          // The first re-attach also breaks: the page is reloaded while the run goes on.
          dropped = true;
          throw new TypeError('Failed to fetch');
        }
        return sse([frame('1', runStarted), frame('2', nodeStarted), frame('3', nodeDone), frame('4', done)]);
      }
      return json(200, detail(dropped ? 'succeeded' : 'running'));
    });
    vi.stubGlobal('fetch', fetchMock);
    try {
      const run = startTestRun('c1', { inputs: {} });
      await vi.waitFor(() => expect(useRunStore.getState().nodeStatus.a).toBe('running'));
      expect(sessionStorage.getItem(activeRunKey('c1'))).toBe('r1');
      await run;
      expect(useRunStore.getState()).toMatchObject({ runId: 'r1', status: 'succeeded', finalOutput: 'ok' });
      expect(sessionStorage.getItem(activeRunKey('c1'))).toBeNull();

      useRunStore.getState().reset();
      sessionStorage.setItem(activeRunKey('c1'), 'r1');
      expect(await resumeActiveRun('c1')).toBe('r1');
      expect(useRunStore.getState()).toMatchObject({ runId: 'r1', status: 'succeeded' });
      expect(await resumeActiveRun('c1')).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('resuming a run that cannot be read', () => {
  it('forgets a run that is gone, keeps it when the server was not reached', async () => {
    const gone = setup(() => json(404, { detail: 'Run not found.', code: 'not_found' }));
    gone.storage.set(activeRunKey('c1'), 'r1');
    await expect(gone.client.resume('c1', gone.sink, signal())).rejects.toMatchObject({ status: 404 });
    expect(gone.storage.size).toBe(0);

    const offline = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    offline.storage.set(activeRunKey('c1'), 'r1');
    await expect(offline.client.resume('c1', offline.sink, signal())).rejects.toMatchObject({ status: 0 });
    expect(offline.storage.get(activeRunKey('c1'))).toBe('r1');
  });
});
