import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '../errors';

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

/**
 * Checks a provider base URL after DNS resolution. Metadata and link-local addresses are refused
 * always; loopback and private networks only under the `public-only` policy (by default builders
 * may use a local Ollama or vLLM).
 */
export async function assertProviderUrl(url: string, policy: 'any' | 'public-only'): Promise<void> {
  const { hostname, protocol } = new URL(url);
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new AppError(422, 'unsafe_url', 'The base URL must use http or https.');
  }
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'metadata.google.internal') throw blocked(host);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    throw new AppError(422, 'unresolvable_url', `The host "${host}" of the base URL could not be resolved.`);
  }
  for (const address of addresses) {
    const plain = address.replace(/^::ffff:/i, '');
    if (ALWAYS_BLOCKED.some((r) => r.test(plain))) throw blocked(host);
    if (policy === 'public-only' && PRIVATE.some((r) => r.test(plain))) throw blocked(host);
  }
}

const blocked = (host: string) =>
  new AppError(
    422,
    'unsafe_url',
    `The base URL points to a private or reserved address (${host}), which is not allowed here.`,
  );
