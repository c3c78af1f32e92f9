// Starts what a process exports, for the API and the worker only (the packages record through the
// no-op-until-started OpenTelemetry API and the metrics registry, see ./index.ts). The SDKs are loaded
// only when configured: unconfigured, a process does not even import them (Sentry's alone takes seconds).
import { context, propagation, trace } from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/sdk-trace';
import { currentLogContext } from './context';
import { SAFE_HEADERS, scrubEvent, scrubSpan } from './scrub';

export interface TelemetryOptions {
  /** `atelier-api` or `atelier-worker`: the traces' service name and the error reports' server name. */
  serviceName: string;
  /** OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT): traces go to `<endpoint>/v1/traces`. Unset: no tracing. */
  otlpEndpoint?: string | undefined;
  /** Full traces URL (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), taking precedence over `otlpEndpoint`. */
  otlpTracesEndpoint?: string | undefined;
  /** Extra OTLP headers, `key=value` pairs separated by commas (OTEL_EXPORTER_OTLP_HEADERS). */
  otlpHeaders?: string | undefined;
  /** Error reporting (SENTRY_DSN). Unset: no client is initialised. */
  sentryDsn?: string | undefined;
  environment?: string | undefined;
  release?: string | undefined;
}

export interface Telemetry {
  tracing: boolean;
  errorReporting: boolean;
  /** Reports an unexpected error, tagged with the current request and run ids (a no-op without a DSN). */
  reportError(error: unknown, context?: Record<string, string>): void;
  /** Sends what is buffered (spans, reports), within a couple of seconds. */
  flush(): Promise<void>;
  /** Flushes, then stops exporting (at the process's exit). */
  shutdown(): Promise<void>;
}

function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at > 0)
      headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

async function startTracing(options: TelemetryOptions): Promise<TracerProvider | null> {
  const url =
    options.otlpTracesEndpoint ??
    (options.otlpEndpoint ? `${options.otlpEndpoint.replace(/\/+$/, '')}/v1/traces` : undefined);
  if (!url) return null;
  const [
    { AsyncLocalStorageContextManager },
    { W3CTraceContextPropagator },
    { OTLPTraceExporter },
    resources,
    sdk,
  ] = await Promise.all([
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
  ]);
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url, headers: parseHeaders(options.otlpHeaders) }),
        scheduledDelayMillis: 1000,
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return provider;
}

let started: Promise<Telemetry> | null = null;

/**
 * Starts tracing (OTLP over HTTP, when an endpoint is set) and error reporting (a Sentry-compatible
 * client, when a DSN is set). With neither, nothing starts: no SDK, no exporter, no hook. Once per
 * process; later calls answer the first one's result.
 */
export function startTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  started ??= start(options);
  return started;
}

async function start(options: TelemetryOptions): Promise<Telemetry> {
  const provider = await startTracing(options);
  const Sentry = options.sentryDsn ? await import('@sentry/node') : null;
  const errorReporting = Sentry !== null;
  if (Sentry) {
    Sentry.init({
      dsn: options.sentryDsn,
      serverName: options.serviceName,
      environment: options.environment,
      release: options.release,
      // The product's error-reporting trace sample rate (spec section 9).
      tracesSampleRate: 1,
      // Collect nothing a request or a model call carried (scrubEvent strips again, whatever comes).
      dataCollection: {
        userInfo: false,
        cookies: false,
        httpHeaders: { request: { allow: [...SAFE_HEADERS] }, response: false },
        httpBodies: [],
        urlQueryParams: false,
        graphQL: { document: false, variables: false },
        genAI: { inputs: false, outputs: false },
        mcp: { inputs: false, outputs: false },
        databaseQueryData: false,
        queues: false,
        stackFrameVariables: false,
      },
      includeLocalVariables: false,
      maxBreadcrumbs: 0,
      // No load-time module rewriting (fragile under tsx/ESM; Fastify and node:http report through
      // their own diagnostics channels).
      enableRuntimeChannelInjection: false,
      beforeSend: (event) => scrubEvent(event),
      beforeSendSpan: (span) => scrubSpan(span),
      beforeBreadcrumb: () => null,
    });
  }
  return {
    tracing: provider !== null,
    errorReporting,
    reportError(error, tags) {
      if (!Sentry) return;
      // The request and run it happened in, to find their log lines.
      const context = currentLogContext();
      Sentry.captureException(error, {
        tags: {
          ...(context?.requestId ? { request_id: context.requestId } : {}),
          ...(context?.runId ? { run_id: context.runId } : {}),
          ...tags,
        },
      });
    },
    async flush() {
      await Promise.allSettled([provider?.forceFlush(), Sentry?.flush(2000)]);
    },
    async shutdown() {
      await Promise.allSettled([provider?.shutdown(), Sentry?.close(2000)]);
    },
  };
}
