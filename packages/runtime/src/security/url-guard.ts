import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { RuntimeError } from '../errors';

// Cloud metadata and link-local addresses are never a provider: they are the classic SSRF targets.
const ALWAYS_BLOCKED = [/^169\.254\./, /^fe80:/i, /^fd00:ec2::254$/i, /^0\./, /^::$/];
const PRIVATE = [
  /^127\./,
  /^10\./,
  /^192\.168\./,
  /^172\.(1[6-9]|2\d|3[01])\./,
  /^::1$/,
  /^f[cd][0-9a-f]{2}:/i,
  /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./,
];

export type UrlPolicy = 'any' | 'public-only';

/**
 * Checks a URL after DNS resolution. Metadata and link-local addresses are refused always; loopback
 * and private networks only under the `public-only` policy (by default builders may use a local Ollama
 * or vLLM as a provider; flow nodes that fetch URLs have their own policy).
 */
export async function assertSafeUrl(url: string, policy: UrlPolicy, what = 'The base URL'): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RuntimeError(422, 'invalid_url', `${what} is not a valid URL.`);
  }
  const { hostname, protocol } = parsed;
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new RuntimeError(422, 'unsafe_url', `${what} must use http or https.`);
  }
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'metadata.google.internal') throw blocked(host, what);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new RuntimeError(
      422,
      'unresolvable_url',
      `The host "${host}" of ${what.toLowerCase()} could not be resolved.`,
    );
  }
  for (const address of addresses) if (!isAllowedAddress(address, policy)) throw blocked(host, what);
}

/** Whether a resolved address may be connected to under `policy`. */
export function isAllowedAddress(address: string, policy: UrlPolicy): boolean {
  const plain = address.replace(/^::ffff:/i, '');
  if (ALWAYS_BLOCKED.some((r) => r.test(plain))) return false;
  return !(policy === 'public-only' && PRIVATE.some((r) => r.test(plain)));
}

export const blocked = (host: string, what: string) =>
  new RuntimeError(
    422,
    'unsafe_url',
    `${what} points to a private or reserved address (${host}), which is not allowed here.`,
  );
