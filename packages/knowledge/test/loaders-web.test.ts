import { type FakeWeb, startFakeWeb } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocuments } from '../src/loaders/index';
import { loaderDeps, req } from './loaders-helpers';

const PAGE = `<!doctype html><html><head><title>Tea &amp; Co</title><style>.x{color:red}</style></head>
<body><nav><a href="/home">Home</a> <a href="/shop">Shop</a></nav>
<h1>Green tea</h1><p>Steep for <b>three minutes</b>; see the <a href="/guide">brewing guide</a>.</p>
<p><img src="/img/cup.png" alt="A cup of tea"></p><script>track()</script>
<table><tr><th>Kind</th><th>Minutes</th></tr><tr><td>Sencha</td><td>2</td></tr></table></body></html>`;

let web: FakeWeb;
beforeAll(async () => {
  web = await startFakeWeb({
    routes: {
      '/tea': PAGE,
      '/notes.txt': { contentType: 'text/plain; charset=utf-8', body: 'Plain notes\nline two\n' },
      '/data.json': { contentType: 'application/json', body: '{"kind":"oolong"}' },
      '/logo.png': { contentType: 'image/png', body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) },
      '/zipped': { body: '<html><body><p>Compressed page</p></body></html>', gzip: true },
      '/latin': {
        contentType: 'text/html; charset=windows-1252',
        body: new Uint8Array([...Buffer.from('<p>caf'), 0xe9, ...Buffer.from('</p>')]),
      },
      '/missing-type': { body: new Uint8Array(Buffer.from('<html><body><p>Sniffed HTML</p></body></html>')) },
      '/gone': { status: 410, body: 'Gone' },
      '/slow': { delayMs: 1500, body: '<p>late</p>' },
      '/stalls': { stallMs: 1500, body: `<p>${'y'.repeat(100_000)}</p>` },
      '/big': { body: `<p>${'x'.repeat(300_000)}</p>` },
    },
  });
});
afterAll(() => web.close());

const scrape = (path: string, ignore = { ignoreLinks: true, ignoreImages: true }, deps = loaderDeps()) =>
  loadDocuments(req({ loader: 'web', url: `${web.url}${path}`, ...ignore }), deps);

describe('web scraper', () => {
  it('reads an HTML page as one document: text, title, source; scripts, styles and navigation dropped', async () => {
    const [doc, ...rest] = await scrape('/tea');
    expect(rest).toHaveLength(0);
    expect(doc!.metadata).toEqual({ source: `${web.url}/tea`, title: 'Tea & Co' });
    expect(doc!.pageContent).toContain('Green tea');
    expect(doc!.pageContent).toContain('Steep for three minutes; see the brewing guide.');
    expect(doc!.pageContent).toContain('Kind | Minutes\nSencha | 2');
    for (const gone of ['track()', 'color:red', 'Shop', '/guide', 'cup.png', 'A cup of tea']) {
      expect(doc!.pageContent).not.toContain(gone);
    }
  });

  it('keeps links and images (absolute URLs) when they are not ignored', async () => {
    const [doc] = await scrape('/tea', { ignoreLinks: false, ignoreImages: false });
    expect(doc!.pageContent).toContain(`brewing guide [${web.url}/guide]`);
    expect(doc!.pageContent).toContain(`A cup of tea [${web.url}/img/cup.png]`);
  });

  it('drops only the images when only images are ignored', async () => {
    const [doc] = await scrape('/tea', { ignoreLinks: false, ignoreImages: true });
    expect(doc!.pageContent).toContain(`brewing guide [${web.url}/guide]`);
    expect(doc!.pageContent).not.toContain('cup.png');
  });

  it('keeps plain text and JSON answers as they are', async () => {
    const [notes] = await scrape('/notes.txt');
    expect(notes!.pageContent).toBe('Plain notes\nline two');
    expect(notes!.metadata).toEqual({ source: `${web.url}/notes.txt`, title: 'notes.txt' });
    const [data] = await scrape('/data.json');
    expect(data!.pageContent).toBe('{"kind":"oolong"}');
  });

  it('refuses binary content with a clear error', async () => {
    await expect(scrape('/logo.png')).rejects.toMatchObject({
      status: 415,
      code: 'unsupported_content',
      message: expect.stringContaining('is image/png, not a web page or text') as unknown,
    });
  });

  it('decodes gzip answers, declared charsets and sniffs untyped HTML', async () => {
    expect((await scrape('/zipped'))[0]!.pageContent).toBe('Compressed page');
    expect((await scrape('/latin'))[0]!.pageContent).toBe('café');
    expect((await scrape('/missing-type'))[0]!.pageContent).toBe('Sniffed HTML');
  });

  it('fails on an error status, a URL that is not http(s), and an answer over the byte limit', async () => {
    await expect(scrape('/gone')).rejects.toMatchObject({
      code: 'page_unavailable',
      message: expect.stringContaining('status 410') as unknown,
    });
    await expect(
      loadDocuments(
        req({ loader: 'web', url: 'ftp://example.com/x', ignoreLinks: true, ignoreImages: true }),
        loaderDeps(),
      ),
    ).rejects.toMatchObject({ status: 422, code: 'invalid_url' });
    await expect(
      scrape('/big', undefined, loaderDeps({ limits: { pageBytes: 100_000 } })),
    ).rejects.toMatchObject({ code: 'response_too_large' });
  });

  it('gives up after the timeout, and stops when the run is cancelled', async () => {
    const started = Date.now();
    await expect(
      scrape('/slow', undefined, loaderDeps({ limits: { timeoutMs: 200 } })),
    ).rejects.toMatchObject({ code: 'request_timeout', status: 504, retryable: true });
    expect(Date.now() - started).toBeLessThan(1200);
    // the body counts too: headers at once, then the answer stalls
    await expect(
      scrape('/stalls', undefined, loaderDeps({ limits: { timeoutMs: 300 } })),
    ).rejects.toMatchObject({
      code: 'request_timeout',
      message: `${web.url}/stalls did not answer within 300 ms.`,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const request = req(
      { loader: 'web', url: `${web.url}/slow`, ignoreLinks: true, ignoreImages: true },
      controller.signal,
    );
    await expect(loadDocuments(request, loaderDeps())).rejects.toMatchObject({ code: 'cancelled' });
  });
});
