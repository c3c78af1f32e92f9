import type { AddressInfo } from 'node:net';
import { providerKinds } from '@atelier/schemas';
import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { finished, flowBot, readEvents, storyFlow } from './flows';
import { call, createOrg, fakeModel, startTestApp, testConfig, type Org } from './helpers';
import { parsePrometheusText, type Labels, type Metrics } from './prometheus-text';

// GET /metrics after a simple chat and a flow run, read with a Prometheus text-format parser. The
// registry is the process's: tests in the same worker add to it, so figures are compared before/after.
let fake: FakeProvider;
let app: FastifyInstance;
let base: string;
let org: Org;
let ws: string;
let modelId: string;

beforeAll(async () => {
  fake = await startFakeProvider({ apiKey: 'test-key', tokenDelayMs: 2 });
  app = await buildApp({ config: testConfig(), database: await sharedTestDatabase(), logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  org = await createOrg(app);
  ws = await org.workspace(org.admin, 'Metered');
  ({ modelId } = await fakeModel(app, org, ws, fake.url));
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

/** The exposition text read strictly (it throws on a line Prometheus would refuse). */
const parse = parsePrometheusText;

async function scrape(): Promise<Metrics> {
  const res = await fetch(`${base}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await res.text());
}

const seriesOf = (metrics: Metrics, name: string) => metrics[name]?.series ?? [];
const matches = (labels: Labels, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([k, v]) => labels[k] === v);
/** A counter's or gauge's value, a histogram's count, summed over the series with these labels (0 when none). */
function valueOf(metrics: Metrics, name: string, labels: Record<string, string> = {}): number {
  return seriesOf(metrics, name)
    .filter((s) => matches(s.labels, labels))
    .reduce((sum, s) => sum + (s.count ?? s.value ?? 0), 0);
}

async function chatOnce(): Promise<void> {
  const bot = (
    await call(app, 'POST', '/chatbots', {
      token: org.admin.token,
      body: { workspace_id: ws, name: 'Metered bot', type: 'simple' },
    })
  ).body.id as string;
  await call(app, 'PUT', `/chatbots/${bot}/simple/config`, {
    token: org.admin.token,
    body: { instruction: 'Be brief.', model_id: modelId },
  });
  await call(app, 'POST', `/chatbots/${bot}/publish`, { token: org.admin.token });
  const conversation = (
    await call(app, 'POST', '/chat-interface/conversations', {
      token: org.admin.token,
      body: { title: '', chatbot_id: bot },
    })
  ).body.conversation_id as string;
  const res = await fetch(`${base}/chat-interface/conversations/${conversation}/simple/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'hello metrics' }] }),
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('[DONE]');
}

describe('GET /metrics', () => {
  it("reads what Prometheus reads: NaN (prom-client's event loop lag before its first sample), ±Inf, labelled histograms; not a word", () => {
    const read = parse(
      [
        '# TYPE lag gauge',
        'lag Nan',
        '# TYPE h histogram',
        'h_bucket{route="a",le="+Inf"} 2',
        'h_sum{route="a"} 1',
        'h_count{route="a"} 2',
        'h_bucket{route="b",le="0.5"} 1',
        'h_bucket{route="b",le="+Inf"} 3',
        'h_sum{route="b"} 1.5e0',
        'h_count{route="b"} 3',
      ].join('\n'),
    );
    expect(read.lag?.series[0]?.value).toBeNaN();
    expect(read.h?.type).toBe('histogram');
    expect(read.h?.series).toEqual([
      { labels: { route: 'a' }, buckets: { '+Inf': 2 }, sum: 1, count: 2 },
      { labels: { route: 'b' }, buckets: { '0.5': 1, '+Inf': 3 }, sum: 1.5, count: 3 },
    ]);
    expect(() => parse('# TYPE g gauge\ng abc\n')).toThrow(/not a sample value/);
    expect(() => parse('g{x=1} 3\n')).toThrow(/malformed labels/);
    expect(() => parse('g{x="1"}\n')).toThrow(/Unable to parse/);
  });

  it('counts requests, streams, the queue, runs, nodes, model calls, tokens and first tokens', async () => {
    const before = await scrape();
    await chatOnce();
    const workflow = await flowBot(app, org, ws, 'workflow', storyFlow(modelId));
    const started = await call(app, 'POST', `/chatbots/${workflow}/runs`, {
      token: org.admin.token,
      body: { inputs: { topic: 'metrics' } },
    });
    expect(started.status).toBe(201);
    const runId = started.body.run_id as string;

    // A stream open while scraping is counted as open.
    const stream = await fetch(`${base}/runs/${runId}/events`, {
      headers: { authorization: `Bearer ${org.admin.token}` },
    });
    const during = await scrape();
    expect(valueOf(during, 'atelier_sse_streams_open')).toBeGreaterThanOrEqual(1);
    await readEvents(stream);
    await finished(app, org.admin.token, runId);

    let after: Metrics = {};
    await vi.waitFor(async () => {
      after = await scrape();
      expect(
        valueOf(after, 'atelier_runs_finished_total', { chatbot_type: 'workflow', status: 'succeeded' }),
      ).toBe(
        valueOf(before, 'atelier_runs_finished_total', { chatbot_type: 'workflow', status: 'succeeded' }) + 1,
      );
    });
    const grew = (name: string, labels: Record<string, string> = {}, by = 1) =>
      expect(valueOf(after, name, labels), `${name} ${JSON.stringify(labels)}`).toBeGreaterThanOrEqual(
        valueOf(before, name, labels) + by,
      );

    // Requests by route pattern and status (the raw URL with its ids never appears).
    expect(after.atelier_http_request_duration_seconds!.type).toBe('histogram');
    grew('atelier_http_request_duration_seconds', {
      method: 'POST',
      route: '/chatbots/:id/runs',
      status_code: '201',
    });
    grew('atelier_http_request_duration_seconds', {
      method: 'POST',
      route: '/chat-interface/conversations/:id/simple/message',
      status_code: '200',
    });
    grew('atelier_http_request_duration_seconds', {
      method: 'GET',
      route: '/runs/:id/events',
      status_code: '200',
    });
    for (const series of seriesOf(after, 'atelier_http_request_duration_seconds')) {
      expect(Object.keys(series.labels).sort()).toEqual(['method', 'route', 'status_code']);
    }

    grew('atelier_sse_streams_total', {}, 2);
    grew('atelier_runs_enqueued_total');
    grew('atelier_run_queue_wait_seconds', { chatbot_type: 'workflow' });
    const depth = seriesOf(after, 'atelier_run_queue_depth');
    expect(depth.map((d) => d.labels.queue)).toContain(process.env.REDIS_URL ? 'bullmq' : 'in-process');
    expect(depth.every((d) => d.value! >= 0)).toBe(true);
    grew('atelier_run_duration_seconds', { chatbot_type: 'workflow', status: 'succeeded' });
    for (const node of ['input', 'llm', 'output']) {
      grew('atelier_node_executions_total', { node_type: node, status: 'succeeded' });
      grew('atelier_node_duration_seconds', { node_type: node, status: 'succeeded' });
    }

    // Two model calls (the chat and the flow's LLM node), by provider type and model type.
    const model = { provider: 'openai_compatible', model_type: 'llm' };
    grew('atelier_model_calls_total', { ...model, outcome: 'ok' }, 2);
    grew('atelier_model_call_duration_seconds', { ...model, outcome: 'ok' }, 2);
    grew('atelier_model_time_to_first_token_seconds', model, 2);
    grew('atelier_model_tokens_total', { provider: 'openai_compatible', direction: 'input' });
    grew('atelier_model_tokens_total', { provider: 'openai_compatible', direction: 'output' });
    for (const series of seriesOf(after, 'atelier_model_calls_total')) {
      expect([...providerKinds, 'other']).toContain(series.labels.provider);
      expect(Object.keys(series.labels).sort()).toEqual(['model_type', 'outcome', 'provider']);
    }
    expect(after.atelier_model_credits_total!.type).toBe('counter');
    expect(valueOf(after, 'atelier_process_cpu_user_seconds_total')).toBeGreaterThan(0);

    // No id, organization, prompt or answer anywhere in the text.
    const text = await (await fetch(`${base}/metrics`)).text();
    for (const leak of [runId, workflow, org.id, ws, modelId, 'hello metrics', 'Echo:', 'Metered bot']) {
      expect(text).not.toContain(leak);
    }
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  });

  it('an unknown route counts as `unmatched`, not as its URL', async () => {
    const res = await fetch(`${base}/no/such/route/1234-abcd`);
    expect(res.status).toBe(404);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).not.toContain('1234-abcd');
    expect(
      valueOf(parse(text), 'atelier_http_request_duration_seconds', {
        route: 'unmatched',
        status_code: '404',
      }),
    ).toBeGreaterThan(0);
  });

  it('with METRICS_TOKEN, only a bearer of the token reads them; METRICS_ENABLED=false removes the route', async () => {
    const guarded = await startTestApp({ METRICS_TOKEN: 'a-long-metrics-token-0123456789' });
    try {
      expect((await call(guarded.app, 'GET', '/metrics')).status).toBe(401);
      expect((await call(guarded.app, 'GET', '/metrics', { token: 'wrong' })).status).toBe(401);
      const ok = await call(guarded.app, 'GET', '/metrics', { token: 'a-long-metrics-token-0123456789' });
      expect(ok.status).toBe(200);
      expect(Object.keys(parse(ok.body as string)).length).toBeGreaterThan(10);
    } finally {
      await guarded.close();
    }
    const off = await startTestApp({ METRICS_ENABLED: 'false' });
    try {
      expect((await call(off.app, 'GET', '/metrics')).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
