import { sitemapXml, startFakeFigma, startFakeWeb, type FakeWeb } from '@atelier/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedLoaderFetch, loadDocuments } from '../src/loaders/index';
import { loaderDeps, req } from './loaders-helpers';

let web: FakeWeb;
beforeAll(async () => {
  web = await startFakeWeb({
    routes: {
      '/page': '<p>Inside</p>',
      '/moved': { redirect: '/page' },
      '/to-other-loopback': { redirect: 'http://127.0.0.2:9/secret' },
      '/to-metadata': { redirect: 'http://169.254.169.254/latest/meta-data/' },
    },
  });
  web.routes.set('/sitemap.xml', {
    contentType: 'application/xml',
    body: sitemapXml([`${web.url}/page`, 'http://127.0.0.2:9/admin']),
  });
});
afterAll(() => web.close());

const scrape = (path: string, deps = loaderDeps()) =>
  loadDocuments(
    req({ loader: 'web', url: `${web.url}${path}`, ignoreLinks: true, ignoreImages: true }),
    deps,
  );

describe('loaders behind the SSRF guard', () => {
  it("refuses a private address under 'public-only' before connecting", async () => {
    const before = web.requests.length;
    const deps = loaderDeps({ fetch: guardedLoaderFetch({ mode: 'public-only' }) });
    await expect(scrape('/page', deps)).rejects.toMatchObject({
      name: 'LoaderError',
      status: 422,
      code: 'unsafe_url',
      retryable: false,
      message: expect.stringContaining(
        'The web scraper URL points to a private or reserved address',
      ) as unknown,
    });
    expect(web.requests.length).toBe(before);
  });

  it('reaches the address the allow list names (NODE_URL_ALLOW=127.0.0.1)', async () => {
    expect((await scrape('/page'))[0]!.pageContent).toBe('Inside');
  });

  it('follows redirects, and checks every hop again', async () => {
    const [doc] = await scrape('/moved');
    expect(doc).toMatchObject({ pageContent: 'Inside', metadata: { source: `${web.url}/moved` } });
    await expect(scrape('/to-other-loopback')).rejects.toMatchObject({
      code: 'unsafe_redirect',
      message: expect.stringContaining('127.0.0.2') as unknown,
    });
    await expect(scrape('/to-metadata')).rejects.toMatchObject({ code: 'unsafe_redirect' });
  });

  it('leaves out the pages of a sitemap that point inwards', async () => {
    const docs = await loadDocuments(
      req({ loader: 'sitemap', url: `${web.url}/sitemap.xml`, filterUrls: [], maxPages: 10 }),
      loaderDeps(),
    );
    expect(docs.map((d) => d.metadata.source)).toEqual([`${web.url}/page`]);
  });

  it('never sends the Figma token to another origin a redirect leads to', async () => {
    const other = await startFakeFigma({ token: 'figd_secret', files: {} });
    try {
      web.routes.set('/v1/files/AbCdEf1234567890', { redirect: `${other.url}/v1/files/AbCdEf1234567890` });
      const request = req({
        loader: 'figma',
        fileKey: 'AbCdEf1234567890',
        nodeIds: [],
        accessToken: 'figd_secret',
      });
      await expect(
        loadDocuments(request, loaderDeps({ endpoints: { figma: web.url } })),
      ).rejects.toMatchObject({
        message: 'The Figma access token was refused.',
      });
      expect(other.requests).toHaveLength(1);
      expect(other.requests[0]!.headers['x-figma-token']).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});
