import { startTelemetry, type Telemetry } from '@atelier/telemetry/start';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../env';

declare module 'fastify' {
  interface FastifyInstance {
    /** Tracing and error reporting of this process (both off unless configured). */
    telemetry: Telemetry;
  }
}

/**
 * Starts the process's exporters from the configuration: OTLP traces when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set, a Sentry-compatible error reporter when SENTRY_DSN is set; neither otherwise (no SDK at all).
 * Once per process (several apps in one test process share them). Unexpected errors (the 500s of
 * plugins/errors.ts, the runtime's failures) are reported through `app.telemetry.reportError`; the
 * reporter's `beforeSend` strips bodies, prompts, answers, headers and secrets (see @atelier/telemetry's
 * scrub.ts). What is buffered is sent when the app closes.
 */
export default fp(
  async function errorReporting(app: FastifyInstance, opts: { config: AppConfig }) {
    const { telemetry: t } = opts.config;
    const telemetry = await startTelemetry({
      serviceName: t.serviceName,
      otlpEndpoint: t.otlpEndpoint,
      otlpTracesEndpoint: t.otlpTracesEndpoint,
      otlpHeaders: t.otlpHeaders,
      sentryDsn: t.sentryDsn,
      environment: t.sentryEnvironment ?? opts.config.nodeEnv,
      release: t.sentryRelease,
    });
    app.decorate('telemetry', telemetry);
    app.addHook('onClose', () => telemetry.flush());
  },
  { name: 'error-reporting' },
);
