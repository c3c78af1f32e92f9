// Error reporting of the web app: a Sentry-compatible client, loaded (as its own chunk) only when the
// build was given VITE_SENTRY_DSN. Reports carry no request body, prompt, answer, header or token:
// the same scrubbing as the API's and the worker's (@atelier/telemetry/scrub), and no breadcrumbs.
import { scrubEvent, scrubSpan } from '@atelier/telemetry/scrub';
import * as Sentry from '@sentry/browser';

export function startErrorReporting(options: { dsn: string; environment?: string; release?: string }): void {
  Sentry.init({
    dsn: options.dsn,
    environment: options.environment,
    release: options.release,
    integrations: [Sentry.browserTracingIntegration()],
    // The product's error-reporting trace sample rate (spec section 9).
    tracesSampleRate: 1,
    maxBreadcrumbs: 0,
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      httpBodies: [],
      urlQueryParams: false,
      genAI: { inputs: false, outputs: false },
    },
    beforeSend: (event) => scrubEvent(event),
    beforeSendSpan: (span) => scrubSpan(span),
    beforeBreadcrumb: () => null,
  });
}
