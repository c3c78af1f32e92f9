import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGuardedFetch,
  guardedRequest,
  guardedStream,
  NetError,
  type ResolvedAddress,
  type UrlPolicy,
} from '../src';

const listen = async (server: Server, host: string) => {
  await new Promise<void>((r) => server.listen(0, host, r));
  return (server.address() as { port: number }).port;
};

// The target: a second server that counts every request it gets. On Linux 0.0.0.0 and [::] reach it.
const targetHits: { url: string; headers: IncomingHttpHeaders }[] = [];
const target = createServer((req, res) => {
  targetHits.push({ url: req.url ?? '', headers: req.headers });
  res.writeHead(200, { 'content-type': 'text/plain' }).end('SECRET-TARGET-BYTES');
});
let targetPort = 0;

let server: Server;
let base = '';
beforeAll(async () => {
  targetPort = await listen(target, '::');
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to)
      return res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end();
    if (req.url === '/hop') return res.writeHead(302, { location: '/json' }).end();
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/see-other') return res.writeHead(303, { location: '/json' }).end();
    if (req.url === '/gzip')
      return res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.from('unzipped')));
    if (req.url === '/elsewhere')
      return res.writeHead(307, { location: `http://localhost:${targetPort}/json` }).end();
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-seen': req.method ?? '' });
      const { authorization, cookie, 'content-type': type, 'x-key': key } = req.headers;
      res.end(JSON.stringify({ method: req.method, body, authorization, cookie, type, key }));
    });
  });
  base = `http://127.0.0.1:${await listen(server, '127.0.0.1')}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await new Promise<void>((r) => target.close(() => r()));
});

const publicOnly: UrlPolicy = { mode: 'public-only' };
const any: UrlPolicy = { mode: 'any' };
const get = (url: string, policy: UrlPolicy, timeoutMs = 1000) =>
  guardedRequest({ method: 'GET', url, headers: {}, timeoutMs }, policy);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as NetError,
  );
const redirect = (to: string, status = 302) =>
  `${base}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

describe('redirects are checked hop by hop', () => {
  const everywhere = [
    'http://0.0.0.0:PORT/',
    `http://0:PORT/`,
    `http://[::]:PORT/`,
    `http://[::ffff:0.0.0.0]:PORT/`,
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
    'http://[2002:a9fe:a9fe::]/',
    'http://[fd00:ec2::254]/',
    'http://metadata.google.internal/computeMetadata/v1/',
  ];
  // Under public-only the redirecting server itself is allowed by the operator; other loopback
  // addresses are not.
  const policies: [string, UrlPolicy, string[]][] = [
    ['any', any, everywhere],
    [
      'public-only with 127.0.0.1 allowed',
      { mode: 'public-only', allow: ['127.0.0.1'] },
      [...everywhere, `http://127.0.0.2:PORT/`, `http://[::1]:PORT/`],
    ],
  ];
  for (const [name, policy, targets] of policies) {
    it(`refuses a redirect to a forbidden address (${name}); the target never hears of it`, async () => {
      const before = targetHits.length;
      for (const to of targets.map((t) => t.replace('PORT', String(targetPort)))) {
        for (const status of [301, 302, 303, 307, 308]) {
          for (const method of ['GET', 'POST']) {
            const error = await failure(
              guardedRequest(
                {
                  method,
                  url: redirect(to, status),
                  headers: {},
                  body: method === 'POST' ? '{}' : undefined,
                  timeoutMs: 2000,
                },
                policy,
              ),
            );
            expect(error, `${method} ${status} → ${to}`).toBeInstanceOf(NetError);
            expect(error, `${method} ${status} → ${to}`).toMatchObject({
              status: 502,
              code: 'unsafe_redirect',
            });
            expect(error!.detail).toMatch(/redirected to/);
          }
        }
      }
      expect(targetHits.slice(before)).toEqual([]);
    });
  }

  it('the streamed and the fetch modes refuse the same redirects', async () => {
    const before = targetHits.length;
    const to = `http://0.0.0.0:${targetPort}/`;
    const streamed = await failure(
      guardedStream(
        { method: 'POST', url: redirect(to, 307), headers: {}, body: '{}', timeoutMs: 2000 },
        any,
      ),
    );
    expect(streamed).toMatchObject({ code: 'unsafe_redirect' });
    const fetched = await failure(createGuardedFetch(any)(redirect(to, 302)));
    expect(fetched).toMatchObject({ code: 'unsafe_redirect' });
    expect(targetHits.slice(before)).toEqual([]);
  });

  it('follows a redirect the policy allows, and drops credentials when the origin changes', async () => {
    const before = targetHits.length;
    const res = await guardedRequest(
      {
        method: 'GET',
        url: redirect(`http://localhost:${targetPort}/allowed`, 307),
        headers: {
          Authorization: 'Bearer s',
          'Proxy-Authorization': 'Basic p',
          Cookie: 'a=b',
          'api-key': 'azure',
          'X-Api-Key': 'anthropic',
          'X-Custom-Secret': 'mine',
          'X-Trace': 'keep',
        },
        secretHeaders: ['x-custom-secret'],
        timeoutMs: 2000,
      },
      { mode: 'public-only', allow: ['127.0.0.1', 'localhost', '::1'] },
    );
    expect(Buffer.from(res.body).toString()).toBe('SECRET-TARGET-BYTES');
    const hit = targetHits.slice(before);
    expect(hit).toHaveLength(1);
    for (const name of [
      'authorization',
      'proxy-authorization',
      'cookie',
      'api-key',
      'x-api-key',
      'x-custom-secret',
    ])
      expect(hit[0]!.headers[name], name).toBeUndefined();
    expect(hit[0]!.headers['x-trace']).toBe('keep');
  });

  it('a name that resolves to a public address first and to loopback next never reaches loopback', async () => {
    let answers = 0;
    const rebinding = async (): Promise<ResolvedAddress[]> =>
      answers++ === 0 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    const policy: UrlPolicy = { mode: 'public-only', resolve: rebinding };
    const before = targetHits.length;
    // Whatever was answered to an earlier check, the connection uses the answer it checks itself.
    answers = 1;
    const error = await failure(get(`http://rebind.test:${targetPort}/`, policy));
    expect(error).toMatchObject({ code: 'unsafe_url', status: 422 });
    expect(answers).toBeGreaterThan(1);
    expect(targetHits.slice(before)).toEqual([]);
  });
});

describe('guarded HTTP', () => {
  it('refuses loopback and private addresses under public-only, by IP and by name', async () => {
    expect(await failure(get(`${base}/json`, publicOnly))).toMatchObject({ code: 'unsafe_url', status: 422 });
    const port = new URL(base).port;
    expect(await failure(get(`http://localhost:${port}/json`, publicOnly))).toMatchObject({
      code: 'unsafe_url',
    });
    expect(await failure(get('http://10.1.2.3/x', publicOnly))).toMatchObject({ code: 'unsafe_url' });
    for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:7f00:1]']) {
      expect(await failure(get(`http://${host}:${port}/json`, publicOnly)), host).toMatchObject({
        code: 'unsafe_url',
      });
    }
  });

  it('always refuses metadata addresses and other schemes', async () => {
    expect(await failure(get('http://169.254.169.254/latest/meta-data', any))).toMatchObject({
      code: 'unsafe_url',
    });
    expect(await failure(get('http://[::ffff:169.254.169.254]/latest/meta-data', any))).toMatchObject({
      code: 'unsafe_url',
    });
    expect(await failure(get('file:///etc/passwd', any))).toMatchObject({ code: 'unsafe_url' });
    expect(await failure(get('not a url', any))).toMatchObject({ code: 'invalid_url' });
  });

  it('follows redirects (a bounded number), sends the body, and times out', async () => {
    const res = await get(`${base}/hop`, any);
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
      any,
    );
    expect(JSON.parse(Buffer.from(posted.body).toString())).toMatchObject({ method: 'POST', body: 'hi' });
    expect(posted.headers['x-seen']).toBe('POST');
    expect(await failure(get(`${base}/loop`, any))).toMatchObject({ code: 'too_many_redirects' });
    expect(await failure(get(`${base}/slow`, any, 200))).toMatchObject({ code: 'request_timeout' });
  });

  it('a 303 turns into a GET without the body headers, and keeps credentials on the same origin', async () => {
    const res = await guardedRequest(
      {
        method: 'POST',
        url: `${base}/see-other`,
        headers: {
          Authorization: 'Basic c2VjcmV0',
          cookie: 'a=b',
          'content-type': 'text/plain',
          'x-key': 'k',
        },
        body: 'hi',
        timeoutMs: 1000,
      },
      any,
    );
    expect(JSON.parse(Buffer.from(res.body).toString())).toEqual({
      method: 'GET',
      body: '',
      authorization: 'Basic c2VjcmV0',
      cookie: 'a=b',
      key: 'k',
    });
  });

  it('the fetch function answers a streamed WHATWG Response, decoded, and honours cancellation', async () => {
    const guardedFetch = createGuardedFetch(any);
    const res = await guardedFetch(`${base}/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-seen')).toBe('POST');
    expect(await res.json()).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(await (await guardedFetch(`${base}/gzip`)).text()).toBe('unzipped');
    const form = new FormData();
    form.append('field', 'value');
    const multipart = (await (await guardedFetch(`${base}/json`, { method: 'POST', body: form })).json()) as {
      type: string;
      body: string;
    };
    expect(multipart.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(multipart.body).toContain('value');
    const controller = new AbortController();
    const pending = guardedFetch(`${base}/slow`, { signal: controller.signal });
    controller.abort();
    expect(await failure(pending)).toMatchObject({ name: 'AbortError' });
  });
});
