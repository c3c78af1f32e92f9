import { createHash, timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The one metrics registry of a process (API or worker) and every metric Atelier records. Each metric is
 * recorded where its event happens once: HTTP in the API's metrics plugin, streams in plugins/sse.ts,
 * the queue in the runtime's queues and executor, run and node ends in the run lifecycle, model calls in
 * metering's one metered call. Labels are bounded enums only (route patterns, statuses, node and
 * provider types): never an id, a name, a URL or anything a user wrote.
 */
export const registry = new Registry();

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const LONG_SECONDS = [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];

export const httpRequestDuration = new Histogram({
  name: 'atelier_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern and status code (rate: the _count series)',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const sseStreamsOpen = new Gauge({
  name: 'atelier_sse_streams_open',
  help: 'Server-sent event streams open now',
  registers: [registry],
});

export const sseStreamsTotal = new Counter({
  name: 'atelier_sse_streams_total',
  help: 'Server-sent event streams opened',
  registers: [registry],
});

const PROBE_TIMEOUT_MS = 1000;

/** How many runs wait in this process's queue view; each queue registers a probe (see `watchQueueDepth`). */
const depthProbes = new Set<{ kind: string; depth(): Promise<number> | number }>();

export const runQueueDepth = new Gauge({
  name: 'atelier_run_queue_depth',
  help: 'Runs waiting for a runner (in process: this process; BullMQ: the shared queue)',
  labelNames: ['queue'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    const totals = new Map<string, number>();
    for (const probe of depthProbes) {
      // A queue that cannot answer (Redis down) is left out rather than hold the scrape.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const depth = await Promise.race([
        Promise.resolve()
          .then(() => probe.depth())
          .catch(() => null),
        new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), PROBE_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
      if (depth !== null) totals.set(probe.kind, (totals.get(probe.kind) ?? 0) + depth);
    }
    for (const [queue, depth] of totals) this.set({ queue }, depth);
  },
});

/** Registers a queue's depth for `atelier_run_queue_depth`; answers the function that removes it. */
export function watchQueueDepth(kind: string, depth: () => Promise<number> | number): () => void {
  const probe = { kind, depth };
  depthProbes.add(probe);
  return () => void depthProbes.delete(probe);
}

export const runsEnqueued = new Counter({
  name: 'atelier_runs_enqueued_total',
  help: 'Runs put on the queue',
  labelNames: ['queue'] as const,
  registers: [registry],
});

export const runQueueWait = new Histogram({
  name: 'atelier_run_queue_wait_seconds',
  help: 'Time from a run being queued to a runner taking it',
  labelNames: ['chatbot_type'] as const,
  buckets: LONG_SECONDS,
  registers: [registry],
});

export const runsFinished = new Counter({
  name: 'atelier_runs_finished_total',
  help: 'Runs ended, by chatbot type and outcome',
  labelNames: ['chatbot_type', 'status'] as const,
  registers: [registry],
});

export const runDuration = new Histogram({
  name: 'atelier_run_duration_seconds',
  help: 'Run execution time (from a runner taking it to its end), by chatbot type and outcome',
  labelNames: ['chatbot_type', 'status'] as const,
  buckets: LONG_SECONDS,
  registers: [registry],
});

export const nodeExecutions = new Counter({
  name: 'atelier_node_executions_total',
  help: 'Node executions, by node type and outcome',
  labelNames: ['node_type', 'status'] as const,
  registers: [registry],
});

export const nodeDuration = new Histogram({
  name: 'atelier_node_duration_seconds',
  help: 'Node execution time, by node type and outcome',
  labelNames: ['node_type', 'status'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const modelCalls = new Counter({
  name: 'atelier_model_calls_total',
  help: 'Metered model calls, by provider type, model type and outcome',
  labelNames: ['provider', 'model_type', 'outcome'] as const,
  registers: [registry],
});

export const modelCallDuration = new Histogram({
  name: 'atelier_model_call_duration_seconds',
  help: 'Metered model call time (fallback included), by provider type, model type and outcome',
  labelNames: ['provider', 'model_type', 'outcome'] as const,
  buckets: LONG_SECONDS,
  registers: [registry],
});

export const modelTimeToFirstToken = new Histogram({
  name: 'atelier_model_time_to_first_token_seconds',
  help: 'Time to the first streamed token of a model call, by provider type and model type',
  labelNames: ['provider', 'model_type'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const modelTokens = new Counter({
  name: 'atelier_model_tokens_total',
  help: 'Tokens consumed by model calls, by provider type and direction (input or output)',
  labelNames: ['provider', 'direction'] as const,
  registers: [registry],
});

export const modelCredits = new Counter({
  name: 'atelier_model_credits_total',
  help: 'Credits charged for model calls, by provider type',
  labelNames: ['provider'] as const,
  registers: [registry],
});

/** A label value from a closed set, or `other`: a label never carries what a user wrote. */
export function bounded(value: string | null | undefined, allowed: ReadonlySet<string>): string {
  return value && allowed.has(value) ? value : 'other';
}

let processMetrics = false;

/** Adds the process's own metrics (CPU, memory, event loop lag, GC), prefixed `atelier_process_`. Once. */
export function enableProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry, prefix: 'atelier_' });
}

/** The registry in Prometheus's text format, and its content type. */
export async function metricsText(): Promise<{ body: string; contentType: string }> {
  return { body: await registry.metrics(), contentType: registry.contentType };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Who may read the metrics: anyone when no token is configured (METRICS_TOKEN unset), otherwise a
 * request whose Authorization header is `Bearer <token>` (compared in constant time).
 */
export function canReadMetrics(authorization: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const given = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}
