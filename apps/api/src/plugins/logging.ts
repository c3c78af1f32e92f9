import { logContextFields } from '@atelier/telemetry';
import type { FastifyRequest } from 'fastify';

export const REDACTED = '[redacted]';

/** Path segments that are secrets: the invitation token of `GET /users/onboarding/{token}`. */
const SECRET_SEGMENTS: RegExp[] = [/^(\/users\/onboarding\/)(?!complete(?:[/?#]|$))[^/?#]+/];
/** Query parameters that would carry a secret if a client ever sent one there. */
const SECRET_QUERY = /([?&](?:token|access_token|refresh_token|password)=)[^&#]*/gi;

/** The URL as it may be logged: token path segments and token query values replaced. */
export function redactUrl(url: string): string {
  let out = url;
  for (const pattern of SECRET_SEGMENTS) out = out.replace(pattern, `$1${REDACTED}`);
  return out.replace(SECRET_QUERY, `$1${REDACTED}`);
}

/** Fastify's request serializer, with the URL redacted. Bodies and headers are not logged. */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    version: req.headers?.['accept-version'],
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * The logger options of the app, whatever the caller gave, with the redacting serializer, and the
 * request and run ids of the current context on lines written outside a request's logger (services,
 * the runs executed here).
 */
export function redactingLogger(logger: boolean | object): boolean | object {
  if (logger === false) return false;
  const base = logger === true ? {} : (logger as { serializers?: object });
  return { mixin: logContextFields, ...base, serializers: { ...base.serializers, req: serializeRequest } };
}
