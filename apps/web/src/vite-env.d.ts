/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_API_URL?: string;
  readonly VITE_API_HOSTS?: string;
  readonly VITE_FEEDBACK_URL?: string;
  readonly VITE_DOCS_URL?: string;
  /** A Sentry-compatible DSN for the web app's errors (build time); unset: no client is loaded. */
  readonly VITE_SENTRY_DSN?: string;
  readonly VITE_SENTRY_ENVIRONMENT?: string;
  readonly VITE_SENTRY_RELEASE?: string;
}
