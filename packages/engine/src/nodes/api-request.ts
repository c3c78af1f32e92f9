import { NodeInputError, PermanentError } from '../errors';
import { stringifyValue } from '../references';
import { decodeText, parseJsonOrText } from '../values/text';
import type { Impl } from './shared';

function requestUrl(text: string, query: Record<string, unknown>): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new NodeInputError(`"${text}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new NodeInputError('The URL must be http(s).');
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, stringifyValue(v));
  }
  return url.toString();
}

/** Calls an HTTP API through the host's guarded client; a JSON answer is parsed. */
export const apiRequest: Impl<'api_request'> = {
  async run({ fields, services, signal }) {
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(fields.headers))
      headers[key.toLowerCase()] = stringifyValue(value);
    const hasBody = fields.body !== '' && fields.method !== 'GET' && fields.method !== 'HEAD';
    if (hasBody && !headers['content-type']) {
      const json = typeof parseJsonOrText(fields.body) !== 'string';
      headers['content-type'] = json ? 'application/json' : 'text/plain; charset=utf-8';
    }
    const response = await services.http({
      method: fields.method,
      url: requestUrl(fields.url, fields.query_params),
      headers,
      ...(hasBody ? { body: fields.body } : {}),
      timeoutMs: fields.timeout_sec * 1000,
      signal,
    });
    const text = decodeText(response.body);
    const isJson = /[/+]json\b/i.test(response.headers['content-type'] ?? '');
    const body = isJson && text !== '' ? parseJsonOrText(text) : text;
    if (fields.fail_on_error_status && response.status >= 400) {
      const message = `The API answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}: ${text.slice(0, 300)}`;
      // Server errors and rate limits may pass on a retry; other client errors will not.
      throw response.status >= 500 || response.status === 429
        ? new Error(message)
        : new PermanentError(message);
    }
    return { status: response.status, headers: response.headers, body };
  },
};
