import { gzipSync } from 'node:zlib';
import { type FakeWeb, sitemapXml, startFakeWeb } from '@atelier/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDocuments, urlFilter } from '../src/loaders/index';
import { loaderDeps, req } from './loaders-helpers';

let web: FakeWeb;
beforeEach(async () => {
  web = await startFakeWeb();
});
afterEach(() => web.close());

const xml = (body: string) => ({ contentType: 'application/xml', body });
const page = (title: string) =>
  `<html><head><title>${title}</title></head><body><p>About ${title}.</p></body></html>`;
const pagesRequested = () => web.requests.filter((r) => r.path.startsWith('/p/')).map((r) => r.path);
const load = (filterUrls: string[] = [], maxPages = 50, deps = loaderDeps()) =>
  loadDocuments(req({ loader: 'sitemap', url: `${web.url}/sitemap.xml`, filterUrls, maxPages }), deps);

/** /sitemap.xml → index of [a.xml, nested.xml]; nested.xml → index of [b.xml]; a: p1 p2, b: p3 p4. */
function nestedSite() {
  const u = (path: string) => `${web.url}${path}`;
  web.routes.set('/sitemap.xml', xml(sitemapXml([u('/a.xml'), u('/nested.xml')], true)));
  web.routes.set('/nested.xml', xml(sitemapXml([u('/b.xml'), u('/sitemap.xml')], true)));
  web.routes.set('/a.xml', xml(sitemapXml([u('/p/one'), u('/p/two'), u('/p/one')])));
  web.routes.set('/b.xml', xml(sitemapXml([u('/p/docs/three'), u('/p/docs/four')])));
  for (const name of ['one', 'two', 'docs/three', 'docs/four'])
    web.routes.set(`/p/${name}`, page(`Page ${name}`));
}

describe('sitemap scraper', () => {
  it('follows nested sitemap indexes and loads each page once, in sitemap order', async () => {
    nestedSite();
    const docs = await load();
    expect(docs.map((d) => d.metadata)).toEqual([
      { source: `${web.url}/p/one`, title: 'Page one' },
      { source: `${web.url}/p/two`, title: 'Page two' },
      { source: `${web.url}/p/docs/three`, title: 'Page docs/three' },
      { source: `${web.url}/p/docs/four`, title: 'Page docs/four' },
    ]);
    expect(docs[0]!.pageContent).toBe('About Page one.');
    // the index naming /sitemap.xml again is not read twice
    expect(web.requests.filter((r) => r.path === '/sitemap.xml')).toHaveLength(1);
  });

  it('decodes the XML escapes of a URL (&amp; and the character reference &#38;)', async () => {
    web.routes.set(
      '/sitemap.xml',
      xml(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
          `<url><loc>${web.url}/p/q?a=1&amp;b=2</loc></url><url><loc>${web.url}/p/r?c=3&#38;d=4</loc></url></urlset>`,
      ),
    );
    web.routes.set('/p/q', page('Q'));
    web.routes.set('/p/r', page('R'));
    const docs = await load();
    expect(docs.map((d) => d.metadata.source)).toEqual([`${web.url}/p/q?a=1&b=2`, `${web.url}/p/r?c=3&d=4`]);
  });

  it('stops at maxPages without fetching more pages or sitemaps', async () => {
    nestedSite();
    const docs = await load([], 2);
    expect(docs.map((d) => d.metadata.source)).toEqual([`${web.url}/p/one`, `${web.url}/p/two`]);
    expect(pagesRequested().sort()).toEqual(['/p/one', '/p/two']);
    expect(web.requests.some((r) => r.path === '/b.xml')).toBe(false);
  });

  it('keeps only URLs containing one of the filter parts (or matching a glob)', async () => {
    nestedSite();
    expect((await load(['/docs/'])).map((d) => d.metadata.title)).toEqual([
      'Page docs/three',
      'Page docs/four',
    ]);
    expect((await load(['two', 'four'])).map((d) => d.metadata.title)).toEqual([
      'Page two',
      'Page docs/four',
    ]);
    expect((await load([`${web.url}/p/*e`])).map((d) => d.metadata.title)).toEqual([
      'Page one',
      'Page docs/three',
    ]);
    expect(await load(['nothing-matches'])).toEqual([]);
    expect(urlFilter([])('https://x.test/a')).toBe(true);
  });

  it('bounds the depth of nested indexes', async () => {
    nestedSite();
    const docs = await load([], 50, loaderDeps({ limits: { sitemapDepth: 1 } }));
    expect(docs.map((d) => d.metadata.title)).toEqual(['Page one', 'Page two']);
    expect(web.requests.some((r) => r.path === '/b.xml')).toBe(false);
  });

  it('reads gzip-compressed sitemaps (.xml.gz)', async () => {
    web.routes.set('/sitemap.xml', xml(sitemapXml([`${web.url}/pages.xml.gz`], true)));
    const gz = gzipSync(Buffer.from(sitemapXml([`${web.url}/p/one`])));
    web.routes.set('/pages.xml.gz', { contentType: 'application/gzip', body: new Uint8Array(gz) });
    web.routes.set('/p/one', page('Zipped'));
    expect((await load()).map((d) => d.metadata.title)).toEqual(['Zipped']);
  });

  it('leaves out pages that fail, but fails when every page does', async () => {
    web.routes.set(
      '/sitemap.xml',
      xml(sitemapXml([`${web.url}/p/one`, `${web.url}/p/missing`, `${web.url}/p/image`])),
    );
    web.routes.set('/p/one', page('One'));
    web.routes.set('/p/image', { contentType: 'image/png', body: new Uint8Array([1, 2, 3]) });
    expect((await load()).map((d) => d.metadata.title)).toEqual(['One']);
    web.routes.delete('/p/one');
    await expect(load()).rejects.toMatchObject({ code: 'page_unavailable' });
  });

  it('refuses an answer that is not a sitemap, and a missing sitemap', async () => {
    web.routes.set('/sitemap.xml', page('Not XML'));
    await expect(load()).rejects.toMatchObject({ status: 422, code: 'invalid_sitemap' });
    web.routes.delete('/sitemap.xml');
    await expect(load()).rejects.toMatchObject({
      code: 'page_unavailable',
      message: expect.stringContaining('404') as unknown,
    });
  });
});
