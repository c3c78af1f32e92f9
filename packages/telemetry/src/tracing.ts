import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { currentLogContext, isSaneRequestId, withLogContext } from './context';

export { context, SpanKind, SpanStatusCode, trace, type Span };

/**
 * Atelier's tracer. Until `startTelemetry` (./start) registers a provider, it is OpenTelemetry's no-op
 * tracer: spans cost next to nothing and nothing is exported.
 */
export const tracer = trace.getTracer('atelier');

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent; the active context by default. */
  parent?: Context;
}

/** Marks a span failed with the error (its message and type, as an exception event). */
export function failSpan(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/** Runs `fn` inside a new active span, ended when `fn` settles; a throw marks it failed and goes on. */
export async function withSpan<T>(
  name: string,
  options: SpanOptions,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = tracer.startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** The trace context a caller sent (W3C `traceparent`), or none: the parent of a server span. */
export function extractTraceContext(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** What a queued run carries from the request that queued it to its runner: request id and trace context. */
export interface JobContext {
  requestId?: string | undefined;
  /** W3C trace context headers (`traceparent`, `tracestate`). */
  trace?: Record<string, string> | undefined;
}

const TRACE_HEADERS = new Set(['traceparent', 'tracestate']);

/** The current request id and trace context, to put in a job's data. */
export function captureJobContext(): JobContext {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const requestId = currentLogContext()?.requestId;
  return {
    ...(requestId ? { requestId } : {}),
    ...(Object.keys(carrier).length > 0 ? { trace: carrier } : {}),
  };
}

/**
 * Runs a job's work in the context it was queued in: its log lines carry the request id and the run id,
 * its spans are children of the span that queued it (another process's, through the job's data). Job
 * data is read defensively: only sane request ids and W3C trace headers are taken.
 */
export function runInJobContext<T>(
  job: JobContext | undefined,
  runId: string,
  fn: () => Promise<T>,
): Promise<T> {
  const carrier: Record<string, string> = {};
  for (const [key, value] of Object.entries(job?.trace ?? {})) {
    if (TRACE_HEADERS.has(key) && typeof value === 'string' && value.length <= 512) carrier[key] = value;
  }
  const parent = propagation.extract(ROOT_CONTEXT, carrier);
  const requestId = isSaneRequestId(job?.requestId) ? job.requestId : undefined;
  return context.with(parent, () => withLogContext({ requestId, runId }, fn, true));
}
