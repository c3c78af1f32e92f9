import { type FakeWeb, sitemapXml, startFakeWeb } from './fake-web';

export interface FakeGitbookPage {
  /** Below the site's base path: '' is the site's home page, 'guides/setup' a page. */
  path: string;
  title: string;
  /** The page's content as HTML (inside `<main>`, after the `<h1>` title). */
  html: string;
}

export interface FakeGitbookOptions {
  /** The site's name (in every `<title>` and header). Default 'Acme Docs'. */
  site?: string;
  /** Where the site is published on its host, like '/docs' (default '' for the root). */
  basePath?: string;
  pages: FakeGitbookPage[];
  /**
   * 'index' (what GitBook publishes: /sitemap.xml, an index naming /sitemap-pages.xml), 'flat' (one
   * urlset) or 'none' (no sitemap: the loader must follow the navigation).
   */
  sitemap?: 'index' | 'flat' | 'none';
  host?: string;
}

export interface FakeGitbook extends FakeWeb {
  /** The published site: url + basePath. */
  siteUrl: string;
}

/**
 * A published GitBook site as its pages look: a header and a sidebar of links to every page
 * (navigation), the page in `<main>`, a footer; and its sitemap under the site's address.
 */
export async function startFakeGitbook(options: FakeGitbookOptions): Promise<FakeGitbook> {
  const site = options.site ?? 'Acme Docs';
  const base = (options.basePath ?? '').replace(/\/+$/, '');
  const web = await startFakeWeb({ host: options.host });
  const pathOf = (page: FakeGitbookPage) => `${base}/${page.path}`.replace(/\/+$/, '') || '/';
  const sidebar = options.pages
    .map((page) => `<li><a href="${pathOf(page)}">${page.title}</a></li>`)
    .join('');
  for (const page of options.pages) {
    web.routes.set(
      pathOf(page),
      `<!DOCTYPE html><html><head><title>${page.title} | ${site}</title></head><body>` +
        `<header><a href="${base || '/'}">${site}</a><nav><a href="https://www.gitbook.com">GitBook</a></nav></header>` +
        `<aside><ul>${sidebar}</ul></aside>` +
        `<main><h1>${page.title}</h1>${page.html}</main>` +
        `<footer>Powered by GitBook</footer></body></html>`,
    );
  }
  const urls = options.pages.map((page) => `${web.url}${pathOf(page)}`);
  const xml = { contentType: 'application/xml' };
  if (options.sitemap === 'flat') web.routes.set(`${base}/sitemap.xml`, { ...xml, body: sitemapXml(urls) });
  if ((options.sitemap ?? 'index') === 'index') {
    web.routes.set(`${base}/sitemap.xml`, {
      ...xml,
      body: sitemapXml([`${web.url}${base}/sitemap-pages.xml`], true),
    });
    web.routes.set(`${base}/sitemap-pages.xml`, { ...xml, body: sitemapXml(urls) });
  }
  return { ...web, siteUrl: `${web.url}${base}` };
}
