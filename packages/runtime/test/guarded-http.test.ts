import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedRequest, isAllowedAddress, type RuntimeError, type UrlPolicy } from '../src';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hop') return res.writeHead(302, { location: '/json' }).end();
    if (req.url === '/to-metadata')
      return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/see-other') return res.writeHead(303, { location: '/json' }).end();
    if (req.url === '/elsewhere') {
      const port = (server.address() as { port: number }).port;
      return res.writeHead(307, { location: `http://localhost:${port}/json` }).end();
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-seen': req.method ?? '' });
      const { authorization, cookie, 'content-type': type, 'x-key': key } = req.headers;
      res.end(JSON.stringify({ method: req.method, body, authorization, cookie, type, key }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const get = (url: string, policy: 'any' | 'public-only', timeoutMs = 1000) =>
  guardedRequest({ method: 'GET', url, headers: {}, timeoutMs }, policy);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as RuntimeError,
  );

describe('guarded HTTP for flow nodes', () => {
  it('refuses loopback and private addresses under public-only, by IP and by name', async () => {
    expect(await failure(get(`${base}/json`, 'public-only'))).toMatchObject({
      code: 'unsafe_url',
      status: 422,
    });
    const port = new URL(base).port;
    expect(await failure(get(`http://localhost:${port}/json`, 'public-only'))).toMatchObject({
      code: 'unsafe_url',
    });
    expect(await failure(get('http://10.1.2.3/x', 'public-only'))).toMatchObject({ code: 'unsafe_url' });
  });

  it('sees through IPv4 addresses written as IPv6 (mapped, also in hex, compatible, NAT64)', async () => {
    const port = new URL(base).port;
    for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:7f00:1]']) {
      expect(await failure(get(`http://${host}:${port}/json`, 'public-only')), host).toMatchObject({
        code: 'unsafe_url',
      });
    }
    expect(await failure(get('http://[::ffff:169.254.169.254]/latest/meta-data', 'any'))).toMatchObject({
      code: 'unsafe_url',
    });
    const cases: [string, UrlPolicy, boolean][] = [
      ['::ffff:a9fe:a9fe', 'any', false],
      ['::a9fe:a9fe', 'any', false],
      ['64:ff9b::a9fe:a9fe', 'any', false],
      ['::ffff:10.0.0.1', 'public-only', false],
      ['::ffff:10.0.0.1', 'any', true],
      ['febf::1', 'any', false],
      ['::1', 'public-only', false],
      ['::1', 'any', true],
      ['::ffff:8.8.8.8', 'public-only', true],
      ['2001:4860:4860::8888', 'public-only', true],
    ];
    for (const [address, policy, allowed] of cases) {
      expect(isAllowedAddress(address, policy), `${address} under ${policy}`).toBe(allowed);
    }
  });

  it('always refuses metadata addresses, also behind a redirect, and other schemes', async () => {
    expect(await failure(get('http://169.254.169.254/latest/meta-data', 'any'))).toMatchObject({
      code: 'unsafe_url',
    });
    expect(await failure(get(`${base}/to-metadata`, 'any'))).toMatchObject({ code: 'unsafe_url' });
    expect(await failure(get('file:///etc/passwd', 'any'))).toMatchObject({ code: 'unsafe_url' });
    expect(await failure(get('not a url', 'any'))).toMatchObject({ code: 'invalid_url' });
  });

  it('follows redirects (a bounded number), sends the body, and times out', async () => {
    const res = await get(`${base}/hop`, 'any');
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${base}/json`);
    expect(JSON.parse(Buffer.from(res.body).toString())).toMatchObject({ method: 'GET', body: '' });
    const posted = await guardedRequest(
      {
        method: 'POST',
        url: `${base}/json`,
        headers: { 'content-type': 'text/plain' },
        body: 'hi',
        timeoutMs: 1000,
      },
      'any',
    );
    expect(JSON.parse(Buffer.from(posted.body).toString())).toMatchObject({ method: 'POST', body: 'hi' });
    expect(posted.headers['x-seen']).toBe('POST');
    expect(await failure(get(`${base}/loop`, 'any'))).toMatchObject({ code: 'too_many_redirects' });
    expect(await failure(get(`${base}/slow`, 'any', 200))).toMatchObject({ code: 'request_timeout' });
  });

  it('keeps credentials for their origin only, and drops the body headers when a redirect turns into GET', async () => {
    const send = (path: string) =>
      guardedRequest(
        {
          method: 'POST',
          url: `${base}${path}`,
          headers: {
            Authorization: 'Basic c2VjcmV0',
            cookie: 'a=b',
            'content-type': 'text/plain',
            'x-key': 'k',
          },
          body: 'hi',
          timeoutMs: 1000,
        },
        'any',
      );
    const seen = async (path: string) =>
      JSON.parse(Buffer.from((await send(path)).body).toString()) as unknown;
    expect(await seen('/elsewhere')).toEqual({ method: 'POST', body: 'hi', type: 'text/plain', key: 'k' });
    expect(await seen('/see-other')).toEqual({
      method: 'GET',
      body: '',
      authorization: 'Basic c2VjcmV0',
      cookie: 'a=b',
      key: 'k',
    });
  });
});
