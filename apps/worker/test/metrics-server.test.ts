import type { AddressInfo } from 'node:net';
import { metrics } from '@atelier/telemetry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../src/metrics-server';

let base: string;
let close: () => void;

beforeAll(async () => {
  const server = await startMetricsServer({ port: 0, host: '127.0.0.1', token: 'worker-metrics-token' });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe("the worker's metrics server", () => {
  it('serves the registry in Prometheus text format to the bearer of the token', async () => {
    metrics.runsFinished.inc({ chatbot_type: 'workflow', status: 'succeeded' });
    const res = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer worker-metrics-token' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^atelier_runs_finished_total\{chatbot_type="workflow",status="succeeded"\} [1-9]/m);
    expect(text).toContain('# TYPE atelier_process_cpu_user_seconds_total counter');
  });

  it('refuses a missing or wrong token, and answers 404 elsewhere', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});
