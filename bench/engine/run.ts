// bench/engine: the flow engine's own cost and runs through the API.
//  1. Overhead per node: a 1,000-node chain of cheap nodes run by the engine alone.
//  2. Empty-workflow runs (input -> output) through the API: POST /chatbots/{id}/runs, then the run's
//     events streamed in the same request until execution_completed. RUNS runs with IN_FLIGHT at a
//     time give the runs per second; then 200 runs one at a time give the time from sending the POST
//     to the first event (p50, p99) without a queue in front (under load, Little's law decides it). In process (no Redis), then on BullMQ
//     with a separate worker process (needs DATABASE_URL and REDIS_URL, as the worker shares them).
// Last line: one JSON object.
import { join } from 'node:path';
import { api, ENCRYPTION_KEY, login, root, start, startApi, stopAll } from '../shared/processes';
import { percentile } from '../shared/stats';
import { engineOverhead } from './overhead';

const RUNS = Number(process.env.BENCH_RUNS ?? 1000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 100);
const DATABASE_URL = process.env.DATABASE_URL ?? '';
const REDIS_URL = process.env.REDIS_URL ?? '';

const emptyWorkflow = {
  nodes: [
    { id: 'input_in01', type: 'input', data: { label: 'Input', fields: [] }, position: { x: 0, y: 0 } },
    {
      id: 'output_ou01',
      type: 'output',
      data: { label: 'Output', fields: { response: '{{#input_in01.query#}}' } },
      position: { x: 200, y: 0 },
    },
  ],
  edges: [{ id: 'input_in01-output_ou01', source: 'input_in01', target: 'output_ou01' }],
};

async function workflowIn(base: string, token: string): Promise<string> {
  const { workspace_id } = await api<{ workspace_id: string }>(base, token, 'POST', '/workspaces', {
    name: `Bench ${Date.now()}`,
  });
  const { id } = await api<{ id: string }>(base, token, 'POST', '/chatbots', {
    workspace_id,
    name: 'Empty workflow',
    type: 'workflow',
  });
  await api(base, token, 'PUT', `/chatbots/${id}/chatflow/config`, { configuration: emptyWorkflow });
  await api(base, token, 'POST', `/chatbots/${id}/publish`);
  return id;
}

/**
 * One run, started with its events streamed in the same request: answers the time from sending to
 * the first event; throws unless the run completes with the right output.
 */
async function oneRun(base: string, token: string, chatbot: string, n: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/chatbots/${chatbot}/runs`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ inputs: { query: `q${n}` } }),
  });
  if (!res.ok) throw new Error(`run refused: ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let first = NaN;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (Number.isNaN(first) && text.includes('data: {')) first = performance.now() - started;
  }
  if (!text.includes(`"final_output":"q${n}"`)) throw new Error(`run ${n} did not complete: ${text}`);
  return first;
}

async function throughput(base: string, label: string) {
  const token = await login(base);
  const chatbot = await workflowIn(base, token);
  await Promise.all(Array.from({ length: 50 }, (_, i) => oneRun(base, token, chatbot, i))); // warm-up
  const firsts: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < RUNS) firsts.push(await oneRun(base, token, chatbot, next++));
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  // Time to first event without a queue in front: one run after another.
  const alone: number[] = [];
  for (let i = 0; i < 200; i++) alone.push(await oneRun(base, token, chatbot, RUNS + i));
  const result = {
    runsPerSecond: RUNS / seconds,
    firstP50: percentile(alone, 50),
    firstP99: percentile(alone, 99),
    loadedFirstP50: percentile(firsts, 50),
  };
  console.log(
    `${label.padEnd(11)} ${RUNS} runs, ${IN_FLIGHT} in flight: ${result.runsPerSecond.toFixed(0)} runs/s ` +
      `(first event p50 ${result.loadedFirstP50.toFixed(1)} ms under that load); ` +
      `one at a time: first event p50 ${result.firstP50.toFixed(1)} ms, p99 ${result.firstP99.toFixed(1)} ms`,
  );
  return result;
}

async function main() {
  const overhead = await engineOverhead();
  console.log(
    `engine      1,000-node chain: ${overhead.validated.toFixed(1)} µs/node with validation, ` +
      `${overhead.unvalidated.toFixed(1)} µs/node without`,
  );
  console.log(`database: ${DATABASE_URL ? 'postgres' : 'pglite'}`);
  const inProcess = await throughput(await startApi({ DATABASE_URL, REDIS_URL: '' }), 'in-process');

  let queue: Awaited<ReturnType<typeof throughput>> | null = null;
  if (DATABASE_URL && REDIS_URL && process.env.BENCH_QUEUE !== 'off') {
    const prefix = `atelier-bench-${Date.now()}`;
    const base = await startApi({
      DATABASE_URL,
      REDIS_URL,
      RUN_WORKER_IN_API: 'false',
      QUEUE_PREFIX: prefix,
    });
    const worker = start(
      ['src/index.ts'],
      { DATABASE_URL, REDIS_URL, ENCRYPTION_KEY, QUEUE_PREFIX: prefix, RUN_CONCURRENCY: '100' },
      join(root, 'apps', 'worker'),
    );
    await new Promise<void>((resolve) =>
      worker.stdout!.on('data', (d: Buffer) => d.toString().includes('worker ready') && resolve()),
    );
    queue = await throughput(base, 'bullmq');
  } else {
    console.log('bullmq      skipped: set DATABASE_URL and REDIS_URL (a worker shares them with the API)');
  }
  const round = (v: number) => Math.round(v * 10) / 10;
  console.log(
    JSON.stringify({
      node_overhead_us: round(overhead.validated),
      node_overhead_unvalidated_us: round(overhead.unvalidated),
      runs_per_s_inprocess: round(inProcess.runsPerSecond),
      runs_per_s_queue: queue ? round(queue.runsPerSecond) : null,
      first_event_p50_ms: round(inProcess.firstP50),
      first_event_p99_ms: round(inProcess.firstP99),
      first_event_p50_ms_queue: queue ? round(queue.firstP50) : null,
      db: DATABASE_URL ? 'postgres' : 'pglite',
    }),
  );
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(stopAll);
