import { randomBytes } from 'node:crypto';
import { startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readEvents } from './flows';
import { startObservedApi, startObservedWorker, type Observed } from './observed-process';
import { startOtlpReceiver, type ReceivedSpan } from './telemetry-receivers';

// Processes of their own start slowly on a loaded machine (tsx compiles the app as it loads).
const SLOW = 240_000;

// One trace per run: the API's request span, the enqueue, the runner's run span, its node spans and
// the model call, exported by OTLP to a local receiver. The API runs as its own process (tracing is
// started once per process, from its environment).
let fake: FakeProvider;
let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
const started: Observed[] = [];

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: 'test-key', tokenDelayMs: 2 });
  otlp = await startOtlpReceiver();
});
afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  await fake?.close();
  await otlp?.close();
});

/** Starts a run with a request id and follows it to its end; answers the run id. */
async function runOnce(api: { base: string; token: string; workflow: string }, requestId: string) {
  const res = await fetch(`${api.base}/chatbots/${api.workflow}/runs`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${api.token}`,
      'content-type': 'application/json',
      'x-request-id': requestId,
    },
    body: JSON.stringify({ inputs: { topic: 'herons' } }),
  });
  expect(res.status).toBe(201);
  expect(res.headers.get('x-request-id')).toBe(requestId);
  const runId = ((await res.json()) as { run_id: string }).run_id;
  const { done } = await readEvents(
    await fetch(`${api.base}/runs/${runId}/events`, { headers: { authorization: `Bearer ${api.token}` } }),
  );
  expect(done).toBe(true);
  return runId;
}

/** The spans of one run's trace, checked as a chain: request → enqueue → run → nodes → model call. */
async function traceOf(requestId: string, runId: string) {
  const find = (pred: (s: ReceivedSpan) => boolean) => otlp.spans.find(pred);
  let chain: Record<string, ReceivedSpan> = {};
  await vi.waitFor(
    () => {
      const request = find((s) => s.attributes['atelier.request_id'] === requestId);
      const run = find((s) => s.name === 'run' && s.attributes['atelier.run_id'] === runId);
      expect(request).toBeDefined();
      expect(run).toBeDefined();
      const inTrace = otlp.spans.filter((s) => s.traceId === request!.traceId);
      const named = (name: string) => inTrace.find((s) => s.name === name);
      chain = {
        request: request!,
        enqueue: named('run.enqueue')!,
        run: run!,
        input: named('node input')!,
        llm: named('node llm')!,
        output: named('node output')!,
        model: named('model.call llm')!,
      };
      for (const [key, span] of Object.entries(chain)) expect(span, key).toBeDefined();
    },
    { timeout: 20_000, interval: 200 },
  );
  return chain;
}

function expectChain(chain: Record<string, ReceivedSpan>) {
  const { request, enqueue, run, input, llm, output, model } = chain as Record<string, ReceivedSpan>;
  expect(request!.name).toBe('POST /chatbots/:id/runs');
  expect(request!.attributes['http.route']).toBe('/chatbots/:id/runs');
  expect(request!.attributes['http.response.status_code']).toBe(201);
  expect(enqueue!.parentSpanId).toBe(request!.spanId);
  expect(run!.parentSpanId).toBe(enqueue!.spanId);
  for (const node of [input!, llm!, output!]) expect(node.parentSpanId).toBe(run!.spanId);
  expect(model!.parentSpanId).toBe(llm!.spanId);
  expect(model!.attributes).toMatchObject({
    'atelier.provider': 'openai_compatible',
    'atelier.model_type': 'llm',
  });
  expect(Number(model!.attributes['atelier.output_tokens'])).toBeGreaterThan(0);
  expect(run!.attributes).toMatchObject({
    'atelier.chatbot_type': 'workflow',
    'atelier.run_status': 'succeeded',
  });
  // What the run was about never becomes a span attribute.
  expect(JSON.stringify(otlp.spans)).not.toContain('herons');
}

describe('traces over OTLP', () => {
  it(
    'one trace from the API call through the in-process queue to the nodes and the model call',
    { timeout: SLOW },
    async () => {
      const api = await startObservedApi({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, REDIS_URL: '' }, fake.url);
      started.push(api);
      const requestId = `trace-${randomBytes(4).toString('hex')}`;
      const runId = await runOnce(api, requestId);
      const chain = await traceOf(requestId, runId);
      expectChain(chain);
      expect(new Set(Object.values(chain).map((s) => s.service))).toEqual(new Set(['atelier-api']));
      expect(otlp.paths.every((p) => p === '/v1/traces')).toBe(true);

      // The run's log lines, written by this API process, carry the request id and the run id.
      await vi.waitFor(() => {
        const ended = api.lines.find((l) => l.msg === 'run ended' && l.runId === runId);
        expect(ended).toMatchObject({ reqId: requestId, outcome: 'succeeded', chatbotType: 'workflow' });
        expect(typeof ended!.durationMs).toBe('number');
      });
      expect(api.lines.find((l) => l.msg === 'run started' && l.runId === runId)).toMatchObject({
        reqId: requestId,
      });
    },
  );

  it.skipIf(!process.env.REDIS_URL || !process.env.DATABASE_URL)(
    'with Redis, the trace goes on in a separate worker, whose log lines carry the request id',
    { timeout: SLOW },
    async () => {
      const prefix = `atelier-otel-${randomBytes(4).toString('hex')}`;
      const api = await startObservedApi(
        { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, RUN_WORKER_IN_API: 'false', QUEUE_PREFIX: prefix },
        fake.url,
      );
      started.push(api);
      const worker = await startObservedWorker({
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        QUEUE_PREFIX: prefix,
      });
      started.push(worker);
      const requestId = `trace-${randomBytes(4).toString('hex')}`;
      const runId = await runOnce(api, requestId);
      const chain = await traceOf(requestId, runId);
      expectChain(chain);
      expect(chain.request!.service).toBe('atelier-api');
      expect(chain.enqueue!.service).toBe('atelier-api');
      for (const key of ['run', 'input', 'llm', 'output', 'model'])
        expect(chain[key]!.service).toBe('atelier-worker');

      await vi.waitFor(() => {
        const ended = worker.lines.find((l) => l.msg === 'run ended' && l.runId === runId);
        expect(ended).toMatchObject({ reqId: requestId, outcome: 'succeeded' });
        expect(typeof ended!.durationMs).toBe('number');
      });
      expect(worker.lines.find((l) => l.msg === 'run started' && l.runId === runId)).toMatchObject({
        reqId: requestId,
        chatbotType: 'workflow',
      });
    },
  );
});
