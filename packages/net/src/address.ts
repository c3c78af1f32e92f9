import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** A resolved address as the DNS resolver answers it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * What outbound requests may reach.
 * - `public-only`: only globally reachable unicast addresses (no IANA special-purpose range, none of
 *   this host's own interface addresses), plus what `allow` lists.
 * - `any`: loopback and private networks too (a local Ollama), but never the always-forbidden ones.
 * Metadata, link-local, unspecified, broadcast and multicast addresses are refused under every
 * policy, even when `allow` lists them.
 */
export interface UrlPolicy {
  mode: 'any' | 'public-only';
  /** Hosts, IP addresses or CIDRs an operator explicitly permits (`ollama.lan`, `10.0.0.5`, `10.1.0.0/16`). */
  allow?: readonly string[] | undefined;
  /** For tests and embedding: the resolver (default: the system's, dns.lookup). */
  resolve?: Resolver | undefined;
  /** For tests and embedding: this host's addresses (default: os.networkInterfaces()). */
  interfaces?: (() => Iterable<string>) | undefined;
}

export type UrlPolicyMode = UrlPolicy['mode'];

/** Where an address stands: reachable by anyone, local to a network or host, or never to be reached. */
export type AddressKind = 'public' | 'local' | 'forbidden';

/** Host names of cloud metadata services: refused by name, whatever they resolve to. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);
/** Metadata services that are not in a link-local range (AWS IPv6, Alibaba Cloud). */
const METADATA_ADDRESSES = new Set(['fd00:ec2:0:0:0:0:0:254', '100.100.100.200']);

const FORBIDDEN_V4 = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal']);
const FORBIDDEN_V6 = new Set(['unspecified', 'linkLocal', 'multicast']);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [IPv6, number];

/** Parses an address in any spelling ipaddr.js accepts ("[::1]", "fe80::1%eth0", "127.1"), or null. */
export function parseAddress(text: string): IPv4 | IPv6 | null {
  const plain = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(plain)) return null;
  try {
    return ipaddr.parse(plain);
  } catch {
    return null;
  }
}

const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * The IPv4 addresses an IPv6 address carries and reaches: IPv4-mapped (::ffff:a.b.c.d) and translated
 * (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4
 * (2002:AABB:CCDD::) and Teredo (server and, inverted, client). Empty for any other address.
 */
export function embeddedIPv4(address: IPv6): IPv4[] {
  const p = address.parts;
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [v4(p[6]!, p[7]!)];
    case '6to4':
      return [v4(p[1]!, p[2]!)];
    case 'teredo':
      return [v4(p[2]!, p[3]!), v4(~p[6]! & 0xffff, ~p[7]! & 0xffff)];
    default:
      // IPv4-compatible: 96 zero bits, then the IPv4 address (not :: nor ::1).
      if (p.slice(0, 6).every((n) => n === 0) && (p[6] !== 0 || p[7]! > 1)) return [v4(p[6]!, p[7]!)];
      return [];
  }
}

/** How long this host's own addresses are reused: every outgoing request checks against them. */
const OWN_ADDRESSES_MS = 1_000;
let hostAddresses: { set: Set<string>; at: number } | null = null;

function addressSet(list: Iterable<string>): Set<string> {
  const set = new Set<string>();
  for (const text of list) {
    const ip = parseAddress(text);
    if (ip) set.add(ip.toNormalizedString());
  }
  return set;
}

function ownAddresses(policy: UrlPolicy): Set<string> {
  if (policy.interfaces) return addressSet(policy.interfaces());
  const now = Date.now();
  if (!hostAddresses || now - hostAddresses.at > OWN_ADDRESSES_MS) {
    const list = Object.values(networkInterfaces()).flatMap((entries) =>
      (entries ?? []).map((e) => e.address),
    );
    hostAddresses = { set: addressSet(list), at: now };
  }
  return hostAddresses.set;
}

function kindOfV4(ip: IPv4, own: Set<string>): AddressKind {
  const range = ip.range();
  if (FORBIDDEN_V4.has(range) || METADATA_ADDRESSES.has(ip.toString())) return 'forbidden';
  if (range !== 'unicast' || own.has(ip.toNormalizedString())) return 'local';
  return 'public';
}

const worst = (kinds: AddressKind[]): AddressKind =>
  kinds.includes('forbidden') ? 'forbidden' : kinds.includes('local') ? 'local' : 'public';

function kindOfParsed(ip: IPv4 | IPv6, own: Set<string>): AddressKind {
  if (ip.kind() === 'ipv4') return kindOfV4(ip as IPv4, own);
  const v6 = ip as IPv6;
  const carried = embeddedIPv4(v6);
  // An address that carries an IPv4 address is judged as the IPv4 address it reaches.
  if (carried.length > 0) return worst(carried.map((c) => kindOfV4(c, own)));
  if (FORBIDDEN_V6.has(v6.range()) || METADATA_ADDRESSES.has(v6.toNormalizedString())) return 'forbidden';
  if (v6.range() !== 'unicast' || !v6.match(GLOBAL_UNICAST_V6) || own.has(v6.toNormalizedString()))
    return 'local';
  return 'public';
}

/** Classifies an address: `public`, `local` (loopback, private, reserved, this host's) or `forbidden`. */
export function addressKind(address: string, policy: Pick<UrlPolicy, 'interfaces'> = {}): AddressKind {
  const ip = parseAddress(address);
  if (!ip) return 'forbidden';
  return kindOfParsed(ip, ownAddresses(policy as UrlPolicy));
}

interface CompiledAllow {
  hosts: Set<string>;
  ranges: [IPv4 | IPv6, number][];
}
const compiled = new WeakMap<readonly string[], CompiledAllow>();

const normalHost = (host: string) =>
  host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');

/** Checks an allow list (hosts, IPs, CIDRs); throws an Error naming the first bad entry. */
export function compileAllow(list: readonly string[]): CompiledAllow {
  const cached = compiled.get(list);
  if (cached) return cached;
  const result: CompiledAllow = { hosts: new Set(), ranges: [] };
  for (const raw of list) {
    const entry = normalHost(raw.trim());
    if (!entry) continue;
    if (entry.includes('/')) {
      try {
        result.ranges.push(ipaddr.parseCIDR(entry));
      } catch {
        throw new Error(`"${raw}" is not a valid CIDR range (like 10.0.0.0/8).`);
      }
      continue;
    }
    const ip = parseAddress(entry);
    if (ip) {
      result.ranges.push([ip, ip.kind() === 'ipv4' ? 32 : 128]);
      continue;
    }
    if (!/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(entry))
      throw new Error(`"${raw}" is neither a host name, an IP address nor a CIDR range.`);
    result.hosts.add(entry);
  }
  compiled.set(list, result);
  return result;
}

/** Splits a comma-separated allow list (an environment variable) and checks every entry. */
export function parseAllowList(text: string | undefined): string[] {
  const list = (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  compileAllow(list);
  return list;
}

function listed(ip: IPv4 | IPv6, host: string | undefined, allow: CompiledAllow): boolean {
  if (host && allow.hosts.has(normalHost(host))) return true;
  const forms: (IPv4 | IPv6)[] = [ip];
  if (ip.kind() === 'ipv6') forms.push(...embeddedIPv4(ip as IPv6));
  return forms.some((form) =>
    allow.ranges.some(([range, bits]) => form.kind() === range.kind() && form.match(range, bits)),
  );
}

export interface AddressCheck {
  /** The host name the address was resolved from, matched against host entries of `allow`. */
  host?: string | undefined;
  /** Only public addresses (a redirect from a public address may not lead inwards). */
  requirePublic?: boolean | undefined;
}

/** Whether a resolved address may be connected to under `policy`. */
export function isAllowedAddress(address: string, policy: UrlPolicy, check: AddressCheck = {}): boolean {
  const ip = parseAddress(address);
  if (!ip) return false;
  const kind = kindOfParsed(ip, ownAddresses(policy));
  if (kind === 'forbidden') return false;
  if (kind === 'public') return true;
  if (check.requirePublic) return false;
  if (policy.mode === 'any') return true;
  return listed(ip, check.host, compileAllow(policy.allow ?? []));
}

/** Whether a host name is a cloud metadata service's, refused whatever it resolves to. */
export const isMetadataHost = (host: string) => METADATA_HOSTS.has(normalHost(host));
