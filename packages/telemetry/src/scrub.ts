// What an error report may carry, for the Sentry-compatible clients of the API, the worker and the web
// app (their `beforeSend`). No dependency: the web app imports this entry too.

/** Keys whose values are never sent: bodies, prompts, answers, credentials. */
const SENSITIVE_KEY =
  /prompt|answer|message|content|input|output|query|body|data|text|token|key|secret|password|passwd|auth|cookie|session|credential|signature|email|phone/i;
/** Request headers that may be sent; every other header (authorization, cookies, API keys) is dropped. */
export const SAFE_HEADERS = new Set([
  'user-agent',
  'content-type',
  'content-length',
  'accept',
  'x-request-id',
]);
const REDACTED = '[redacted]';
/** Credentials that could appear inside a message: bearer tokens, provider keys, JWTs, URL userinfo. */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/\b(sk|pk|rk|ak|key)[-_][A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, REDACTED],
  [/(\/\/)[^/\s:@]+:[^/\s@]+@/g, `$1${REDACTED}@`],
];

type Loose = Record<string, unknown>;

const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);

export function scrubText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** A URL without its query string and fragment (where tokens travel), credentials masked. */
function scrubUrl(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  return scrubText(url.replace(/[?#].*$/, ''));
}

/** Sensitive keys' values replaced, every string's secrets masked, to a bounded depth. */
function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (depth > 6) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1));
  if (!isObject(value)) return value;
  const out: Loose = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SENSITIVE_KEY.test(key) ? REDACTED : scrubValue(v, depth + 1);
  }
  return out;
}

function scrubRequest(request: unknown): unknown {
  if (!isObject(request)) return undefined;
  const headers: Loose = {};
  if (isObject(request.headers)) {
    for (const [name, value] of Object.entries(request.headers)) {
      if (SAFE_HEADERS.has(name.toLowerCase())) headers[name] = value;
    }
  }
  // No data (the body), query string, cookies or environment.
  return { method: request.method, url: scrubUrl(request.url), headers };
}

function scrubException(exception: unknown): unknown {
  if (!isObject(exception) || !Array.isArray(exception.values)) return exception;
  return {
    ...exception,
    values: exception.values.map((value: unknown) => {
      if (!isObject(value)) return value;
      const stacktrace = isObject(value.stacktrace) ? value.stacktrace : undefined;
      return {
        ...value,
        ...(typeof value.value === 'string' ? { value: scrubText(value.value) } : {}),
        ...(stacktrace && Array.isArray(stacktrace.frames)
          ? {
              stacktrace: {
                ...stacktrace,
                // Local variables could hold anything a request carried.
                frames: stacktrace.frames.map((f: unknown) => (isObject(f) ? { ...f, vars: undefined } : f)),
              },
            }
          : {}),
      };
    }),
  };
}

function scrubSpans(spans: unknown): unknown {
  if (!Array.isArray(spans)) return spans;
  return spans.map((span: unknown) =>
    isObject(span) ? { ...span, data: scrubValue(span.data), description: scrubUrl(span.description) } : span,
  );
}

/**
 * An error or transaction event as it may leave: the request reduced to method, URL without query and
 * a few harmless headers (no body, cookies, authorization or API keys); no user, breadcrumbs or local
 * variables; extra data and contexts without prompts, answers, messages or secrets; credentials masked
 * in every message. The `beforeSend` of every client.
 */
export function scrubEvent<T>(event: T): T {
  if (!isObject(event)) return event;
  const out: Loose = { ...event };
  if ('request' in out) out.request = scrubRequest(out.request);
  delete out.user;
  delete out.breadcrumbs;
  if (typeof out.message === 'string') out.message = scrubText(out.message);
  if (isObject(out.logentry)) out.logentry = scrubValue(out.logentry);
  if ('exception' in out) out.exception = scrubException(out.exception);
  if ('extra' in out) out.extra = scrubValue(out.extra);
  if ('contexts' in out) out.contexts = scrubValue(out.contexts);
  if ('tags' in out) out.tags = scrubValue(out.tags);
  if ('spans' in out) out.spans = scrubSpans(out.spans);
  if (typeof out.transaction === 'string') out.transaction = scrubUrl(out.transaction);
  return out as T;
}

const HEADER_ATTRIBUTE = /^http\.(request|response)\.header\.(.+)$/;
const URL_ATTRIBUTES = new Set(['url.full', 'http.url', 'http.target', 'url.path']);

/**
 * A streamed span as it may leave (`beforeSendSpan`): header attributes only for the harmless headers,
 * URLs without their query, and no attribute whose name says it holds content or a secret.
 */
export function scrubSpan<T>(span: T): T {
  if (!isObject(span) || !isObject(span.attributes)) return span;
  const attributes: Loose = {};
  for (const [key, value] of Object.entries(span.attributes)) {
    const header = HEADER_ATTRIBUTE.exec(key);
    if (header) {
      if (SAFE_HEADERS.has(header[2]!.toLowerCase())) attributes[key] = value;
    } else if (URL_ATTRIBUTES.has(key)) {
      attributes[key] = scrubUrl(value);
    } else {
      attributes[key] = SENSITIVE_KEY.test(key) ? REDACTED : scrubValue(value);
    }
  }
  return { ...span, name: scrubUrl(span.name), attributes } as T;
}
