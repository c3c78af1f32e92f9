import { context, trace } from '@opentelemetry/api';
import * as Sentry from '@sentry/node';
import { describe, expect, it } from 'vitest';
import { captureJobContext, requestIdFrom, runInJobContext, currentLogContext } from '../src';
import { startTelemetry } from '../src/start';

describe('telemetry left unconfigured', () => {
  it('starts nothing: no error-reporting client, no tracer provider, no context propagation', async () => {
    const telemetry = await startTelemetry({ serviceName: 'atelier-test' });
    expect(telemetry).toMatchObject({ tracing: false, errorReporting: false });
    expect(Sentry.isInitialized()).toBe(false);
    const span = trace.getTracer('t').startSpan('s');
    expect(span.isRecording()).toBe(false);
    span.end();
    // No propagator: a job carries no trace context, only the request id.
    expect(captureJobContext()).toEqual({});
    expect(() => telemetry.reportError(new Error('x'))).not.toThrow();
    await telemetry.shutdown();
    expect(context.active()).toBeDefined();
  });
});

describe('request ids and job context', () => {
  it('keeps a sane client id and replaces anything else with a UUID', () => {
    expect(requestIdFrom('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    for (const bad of [undefined, '', ' x', 'a b', 'x'.repeat(129), 'é', 'a\nb', '<x>', '"q"']) {
      expect(requestIdFrom(bad)).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(requestIdFrom(['first', 'second'])).toBe('first');
  });

  it('a job runs under its own request id and run id, not those of whoever runs it', async () => {
    const seen = await runInJobContext({ requestId: 'req-a' }, 'run-1', async () => {
      const inner = await runInJobContext({ requestId: 'bad id!' }, 'run-2', async () => currentLogContext());
      return { outer: currentLogContext(), inner };
    });
    expect(seen.outer).toEqual({ requestId: 'req-a', runId: 'run-1' });
    expect(seen.inner).toEqual({ requestId: undefined, runId: 'run-2' });
  });
});
