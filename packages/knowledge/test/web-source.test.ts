import { sitemapXml, startFakeWeb, type FakeWeb } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnowledgeDeps } from '../src/facade';
import { fetchWebDocument, webSourcePages } from '../src/ingest/web-source';
import { isTransient } from '../src/ingest/worker';
import { LoaderError } from '../src/loaders/http';
import { FAKES_POLICY } from './loaders-helpers';
import { rejection } from './rejection';

let web: FakeWeb;
// Only what web sources use: the loaders' policy (the fakes on 127.0.0.1 allowed, nothing else private).
const deps = { loaderPolicy: FAKES_POLICY } as unknown as KnowledgeDeps;
const signal = () => new AbortController().signal;

beforeAll(async () => {
  web = await startFakeWeb({
    routes: {
      '/docs/guide.pdf': { body: new Uint8Array([0x25, 0x50, 0x44, 0x46]), contentType: 'application/pdf' },
      '/download': { body: new Uint8Array([0x25, 0x50, 0x44, 0x46]), contentType: 'application/pdf' },
      '/notes': { body: 'Plain notes.', contentType: 'text/plain; charset=utf-8' },
      '/': '<html><body>Home</body></html>',
      '/slow-sitemap.xml': { body: sitemapXml(['https://example.com/a']), delayMs: 1500 },
    },
  });
});
afterAll(() => web?.close());

describe('web sources', () => {
  it('a fetched page is named by its address when that names a type, else by its media type', async () => {
    const named = async (path: string) =>
      (await fetchWebDocument(deps, `${web.url}${path}`, signal())).filename;
    expect(await named('/docs/guide.pdf')).toBe('guide.pdf');
    expect(await named('/download')).toBe('download.pdf');
    expect(await named('/notes')).toBe('notes.txt');
    expect(await named('/')).toBe('page.html');
  });

  it('a page that cannot be reached fails as a loader error the worker tries again', async () => {
    const error = await fetchWebDocument(deps, 'http://127.0.0.1:1/closed', signal()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LoaderError);
    expect(error).toMatchObject({ code: 'request_failed' });
    expect(isTransient(error)).toBe(true);
    // A page that answers 404 is not tried again.
    const missing = await fetchWebDocument(deps, `${web.url}/missing`, signal()).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'page_unavailable' });
    expect(isTransient(missing)).toBe(false);
  });

  it('a sitemap that takes longer than allowed is refused (504), not waited for', async () => {
    // The fake answers after 1.5 s: past the 0.3 s allowed, the read is given up.
    const error = await rejection(
      webSourcePages(deps, { url: `${web.url}/slow-sitemap.xml`, sitemap: true }, signal(), 300),
    );
    expect(error).toMatchObject({ status: 504, code: 'sitemap_timeout' });
  });

  it('a private address is refused before anything is fetched', async () => {
    const error = await rejection(webSourcePages(deps, { url: 'http://10.0.0.8/wiki' }, signal()));
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
    expect(await rejection(webSourcePages(deps, { url: 'file:///etc/passwd' }, signal()))).toMatchObject({
      status: 422,
      code: 'invalid_url',
    });
  });
});
