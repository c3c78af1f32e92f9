import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { isAllowedAddress, isMetadataHost, type ResolvedAddress, type UrlPolicy } from './address';
import { NetError } from './errors';

const systemResolver = async (hostname: string): Promise<ResolvedAddress[]> =>
  dnsLookup(hostname, { all: true, verbatim: true });

export const resolverOf = (policy: UrlPolicy) => policy.resolve ?? systemResolver;

/** How a refusal is worded: the first URL (422 unsafe_url) or a redirect (502 unsafe_redirect). */
export interface Refusal {
  /** "The provider URL", "The request URL"… */
  what: string;
  redirect: boolean;
  /** The redirect came from a public address: only public addresses may follow. */
  requirePublic: boolean;
}

export function refused(host: string, refusal: Refusal): NetError {
  if (!refusal.redirect) {
    return new NetError(
      422,
      'unsafe_url',
      `${refusal.what} points to a private or reserved address (${host}), which is not allowed here.`,
    );
  }
  return new NetError(
    502,
    'unsafe_redirect',
    refusal.requirePublic
      ? `${refusal.what} redirected from a public address to a non-public one (${host}), which is never followed.`
      : `${refusal.what} redirected to a private or reserved address (${host}), which is not allowed here.`,
  );
}

/**
 * The checks that need no DNS: a well-formed http(s) URL, not a metadata host name, and an IP literal
 * host that the policy allows (node connects to IP literals without calling the lookup).
 */
export function precheck(url: string, policy: UrlPolicy, refusal: Refusal): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refusal.redirect
      ? new NetError(502, 'unsafe_redirect', `${refusal.what} redirected to an invalid URL.`)
      : new NetError(422, 'invalid_url', `${refusal.what} is not a valid URL.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw refusal.redirect
      ? new NetError(502, 'unsafe_redirect', `${refusal.what} redirected to a URL that is not http or https.`)
      : new NetError(422, 'unsafe_url', `${refusal.what} must use http or https.`);
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isMetadataHost(host)) throw refused(host, refusal);
  if (isIP(host) && !isAllowedAddress(host, policy, { requirePublic: refusal.requirePublic }))
    throw refused(host, refusal);
  return parsed;
}

/**
 * Checks a URL and every address its host resolves to, before anything is sent: for checking a URL
 * when it is saved. Requests themselves check the address they connect to (see guardedLookup).
 */
export async function assertSafeUrl(url: string, policy: UrlPolicy, what = 'The base URL'): Promise<void> {
  const refusal = { what, redirect: false, requirePublic: false };
  const parsed = precheck(url, policy, refusal);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return;
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolverOf(policy)(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) {
    throw new NetError(
      422,
      'unresolvable_url',
      `The host "${host}" of ${what.toLowerCase()} could not be resolved.`,
    );
  }
  for (const { address } of addresses)
    if (!isAllowedAddress(address, policy, { host })) throw refused(host, refusal);
}

/**
 * A resolver for node:net that refuses what the policy refuses: the addresses checked are the
 * addresses connected to, so a DNS answer cannot change between check and connect (no rebinding).
 * A name with any refused address is refused.
 */
export function guardedLookup(policy: UrlPolicy, refusal: Refusal): LookupFunction {
  const resolve = resolverOf(policy);
  return (hostname, options, callback) => {
    const answer = callback as (error: Error | null, address: unknown, family?: number) => void;
    resolve(hostname).then(
      (all) => {
        const list = options.family ? all.filter((a) => a.family === options.family) : all;
        if (list.length === 0) {
          const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
          return answer(error, options.all ? [] : '', 0);
        }
        const check = { host: hostname, requirePublic: refusal.requirePublic };
        if (list.some((a) => !isAllowedAddress(a.address, policy, check)))
          return answer(refused(hostname, refusal), options.all ? [] : '', 0);
        if (options.all) return answer(null, list);
        answer(null, list[0]!.address, list[0]!.family);
      },
      (error: Error) => answer(error, options.all ? [] : '', 0),
    );
  };
}
