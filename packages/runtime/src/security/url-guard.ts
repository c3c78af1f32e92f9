import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { RuntimeError } from '../errors';

// Cloud metadata and link-local addresses are never a provider: they are the classic SSRF targets.
const ALWAYS_BLOCKED = [/^169\.254\./, /^fe[89ab][0-9a-f]:/i, /^fd00:ec2::254$/i, /^0\./, /^::$/];
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

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad allowed), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const groups =
    halves.length === 2
      ? [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail]
      : head;
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

/**
 * The IPv4 address an IPv6 address reaches: IPv4-mapped (::ffff:a.b.c.d, which URLs write in hex as
 * ::ffff:7f00:1), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) forms; else the address.
 */
function reachedAddress(address: string): string {
  if (isIP(address) !== 6) return address;
  const g = ipv6Groups(address);
  if (!g) return address;
  const zeros = (from: number, to: number) => g.slice(from, to).every((n) => n === 0);
  const mapped = zeros(0, 5) && g[5] === 0xffff;
  const compatible = zeros(0, 6) && g[6] !== 0;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6);
  if (!mapped && !compatible && !nat64) return address;
  return [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff].join('.');
}

/** Whether a resolved address may be connected to under `policy`. */
export function isAllowedAddress(address: string, policy: UrlPolicy): boolean {
  const plain = reachedAddress(address.replace(/^\[|\]$/g, ''));
  if (ALWAYS_BLOCKED.some((r) => r.test(plain))) return false;
  return !(policy === 'public-only' && PRIVATE.some((r) => r.test(plain)));
}

export const blocked = (host: string, what: string) =>
  new RuntimeError(
    422,
    'unsafe_url',
    `${what} points to a private or reserved address (${host}), which is not allowed here.`,
  );
