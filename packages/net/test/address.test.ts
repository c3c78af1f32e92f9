import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  assertSafeUrl,
  isAllowedAddress,
  NetError,
  parseAllowList,
  type ResolvedAddress,
  type UrlPolicy,
} from '../src';

const publicOnly: UrlPolicy = { mode: 'public-only' };
const any: UrlPolicy = { mode: 'any' };

/** A resolver that knows a few names, for tests that must not touch the network. */
const names: Record<string, string[]> = {
  'public.test': ['93.184.216.34'],
  'loop.test': ['127.0.0.1'],
  'private.test': ['10.1.2.3'],
  'reserved.test': ['198.18.0.1'],
  'mixed.test': ['93.184.216.34', '10.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'self.test': ['203.0.113.200'],
  'ollama.lan': ['10.0.0.5'],
};
const resolve = async (host: string): Promise<ResolvedAddress[]> => {
  if (host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
  const found = names[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof NetError ? e.code : `unexpected: ${String(e)}`),
  );

describe('the address policy', () => {
  it('refuses loopback in every spelling, through URLs, under public-only; allows it under any', async () => {
    const spellings = [
      'http://127.0.0.1/',
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
      'http://[::127.0.0.1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:7f00:1::]/',
      'http://localhost/',
      'http://loop.test/',
      'http://mapped.test/',
    ];
    for (const url of spellings) {
      expect(await outcome(assertSafeUrl(url, { ...publicOnly, resolve })), url).toBe('unsafe_url');
      expect(await outcome(assertSafeUrl(url, { ...any, resolve })), url).toBe('ok');
    }
  });

  it('classifies addresses: private, reserved and special-purpose ranges are not public', () => {
    const local = [
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.254',
      '192.168.1.1',
      '100.64.0.1',
      '192.0.0.8',
      '192.0.2.1',
      '198.18.0.1',
      '198.19.255.1',
      '198.51.100.7',
      '203.0.113.5',
      '240.0.0.1',
      '192.88.99.1',
      'fc00::1',
      'fd12:3456::1',
      'fec0::1',
      '2001:db8::1',
      '100::1',
      '2001:2::1',
      '::ffff:10.0.0.1',
      '2002:0a00:0001::',
    ];
    for (const address of local) {
      expect(isAllowedAddress(address, publicOnly), `${address} under public-only`).toBe(false);
      expect(isAllowedAddress(address, any), `${address} under any`).toBe(true);
    }
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '2002:0808:0808::',
    ]) {
      expect(isAllowedAddress(address, publicOnly), address).toBe(true);
    }
  });

  it('always refuses metadata, link-local, unspecified, broadcast and multicast addresses, in any form', async () => {
    const forbidden = [
      '169.254.169.254',
      '169.254.0.1',
      'fe80::1',
      'febf::1',
      'fd00:ec2::254',
      '100.100.100.200',
      '0.0.0.0',
      '0.1.2.3',
      '::',
      '255.255.255.255',
      '224.0.0.1',
      'ff02::1',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::a9fe:a9fe',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::',
      // Teredo: the client address is stored inverted (~169.254.169.254 = 5601:5601).
      '2001:0:4136:e378:8000:63bf:5601:5601',
    ];
    for (const address of forbidden) {
      for (const policy of [
        publicOnly,
        any,
        { mode: 'any' as const, allow: [address, '0.0.0.0/0', '::/0'] },
      ]) {
        expect(isAllowedAddress(address, policy), `${address} under ${JSON.stringify(policy)}`).toBe(false);
      }
    }
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00:ec2::254]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://metadata.test/',
      'http://0.0.0.0:8080/',
      'http://0/',
      'http://[::]/',
      'http://255.255.255.255/',
    ]) {
      expect(await outcome(assertSafeUrl(url, { ...any, resolve })), url).toBe('unsafe_url');
      expect(
        await outcome(
          assertSafeUrl(url, { mode: 'public-only', allow: ['metadata.google.internal'], resolve }),
        ),
        url,
      ).toBe('unsafe_url');
    }
  });

  it('checks names by what they resolve to: every address must pass', async () => {
    const policy = { ...publicOnly, resolve };
    expect(await outcome(assertSafeUrl('https://public.test/v1', policy))).toBe('ok');
    expect(await outcome(assertSafeUrl('https://private.test/v1', policy))).toBe('unsafe_url');
    expect(await outcome(assertSafeUrl('https://reserved.test/v1', policy))).toBe('unsafe_url');
    expect(await outcome(assertSafeUrl('https://mixed.test/v1', policy))).toBe('unsafe_url');
    expect(await outcome(assertSafeUrl('https://nowhere.test/v1', policy))).toBe('unresolvable_url');
    expect(await outcome(assertSafeUrl('ftp://public.test/', policy))).toBe('unsafe_url');
    expect(await outcome(assertSafeUrl('not a url', policy))).toBe('invalid_url');
  });

  it("refuses the host's own interface addresses under public-only, by address and by name", async () => {
    const own = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .map((e) => e.address);
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) expect(isAllowedAddress(address, publicOnly), address).toBe(false);
    // A host whose interface has a public address: that address is this host, not the internet.
    const policy: UrlPolicy = {
      mode: 'public-only',
      resolve,
      interfaces: () => ['203.0.113.200', '8.8.4.4'],
    };
    expect(isAllowedAddress('8.8.4.4', policy)).toBe(false);
    expect(isAllowedAddress('8.8.8.8', policy)).toBe(true);
    expect(await outcome(assertSafeUrl('http://8.8.4.4:5001/health', policy))).toBe('unsafe_url');
    expect(await outcome(assertSafeUrl('http://self.test:5001/health', policy))).toBe('unsafe_url');
  });

  it('lets an operator allow hosts, addresses and ranges, but never the forbidden ones', async () => {
    const policy: UrlPolicy = { mode: 'public-only', allow: ['ollama.lan', '172.20.0.0/16', '::1'], resolve };
    expect(await outcome(assertSafeUrl('http://ollama.lan:11434/v1', policy))).toBe('ok');
    expect(await outcome(assertSafeUrl('http://10.0.0.5:11434/v1', policy))).toBe('unsafe_url');
    expect(await outcome(assertSafeUrl('http://172.20.3.4/', policy))).toBe('ok');
    expect(await outcome(assertSafeUrl('http://[::ffff:172.20.3.4]/', policy))).toBe('ok');
    expect(await outcome(assertSafeUrl('http://172.21.0.1/', policy))).toBe('unsafe_url');
    expect(await outcome(assertSafeUrl('http://[::1]/', policy))).toBe('ok');
    expect(await outcome(assertSafeUrl('http://127.0.0.1/', policy))).toBe('unsafe_url');
    expect(isAllowedAddress('10.0.0.5', { mode: 'public-only', allow: ['10.0.0.5'] })).toBe(true);
    expect(isAllowedAddress('169.254.169.254', { mode: 'public-only', allow: ['169.254.0.0/16'] })).toBe(
      false,
    );
  });

  it('refuses inward steps after a public address, whatever the policy', () => {
    for (const policy of [any, { mode: 'public-only' as const, allow: ['10.0.0.0/8'] }]) {
      expect(isAllowedAddress('10.0.0.5', policy)).toBe(true);
      expect(isAllowedAddress('10.0.0.5', policy, { requirePublic: true })).toBe(false);
      expect(isAllowedAddress('8.8.8.8', policy, { requirePublic: true })).toBe(true);
    }
  });

  it('reads allow lists from the environment and names a bad entry', () => {
    expect(parseAllowList(' ollama.lan, 10.0.0.5 ,10.1.0.0/16,,[fd00::1]')).toEqual([
      'ollama.lan',
      '10.0.0.5',
      '10.1.0.0/16',
      '[fd00::1]',
    ]);
    expect(parseAllowList(undefined)).toEqual([]);
    expect(() => parseAllowList('10.0.0.0/99')).toThrow(/10\.0\.0\.0\/99/);
    expect(() => parseAllowList('http://ollama.lan')).toThrow(/http:\/\/ollama\.lan/);
  });
});
