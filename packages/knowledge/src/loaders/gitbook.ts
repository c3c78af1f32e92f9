import type { FlowDocument } from '@atelier/schemas';
import { httpUrl, type LoaderContext, LoaderError } from './http';
import { decodePage, fetchPage, pageDocument, type PageTextOptions } from './page';
import { loadPages, sitemapUrls } from './sitemap';

/** A GitBook page's content is its `<main>` (the header, sidebar and footer are navigation). */
const CONTENT: PageTextOptions = { ignoreLinks: true, ignoreImages: true, content: ['main', 'article'] };
const ASSET = /\.(png|jpe?g|gif|svg|webp|ico|css|js|json|xml|txt|pdf|zip|woff2?)$/i;

const clean = (url: URL) => {
  url.hash = '';
  url.search = '';
  return url.href;
};

/**
 * The pages a published GitBook site lists: its sitemap.xml (GitBook publishes a sitemap index under
 * the site's address; tried there, then at the host's root), else the links of the given page.
 */
async function sitePages(ctx: LoaderContext, start: URL, under: (url: string) => boolean): Promise<string[]> {
  const max = ctx.limits.gitbookPages;
  const base = start.href.replace(/\/+$/, '');
  const candidates = [...new Set([`${base}/sitemap.xml`, `${start.origin}/sitemap.xml`])];
  for (const sitemap of candidates) {
    try {
      const urls = await sitemapUrls(ctx, sitemap, under, max);
      if (urls.length > 0) return urls;
    } catch (error) {
      if (!(error instanceof LoaderError) || ctx.signal.aborted) throw error;
    }
  }
  const res = await fetchPage(ctx, start.href, 'The GitBook URL');
  const links = new Set([clean(new URL(res.url))]);
  for (const match of decodePage(res).matchAll(/<a\s[^>]*href=["']([^"'#][^"']*)["']/gi)) {
    let link: URL;
    try {
      link = new URL(match[1]!.replace(/&amp;/g, '&'), res.url);
    } catch {
      continue;
    }
    if (links.size >= max) break;
    if (!ASSET.test(link.pathname) && under(link.href)) links.add(clean(link));
  }
  return [...links];
}

/** The GitBook loader: the given page, or with `loadAllPaths` every page of the site below its URL. */
export async function loadGitbook(
  ctx: LoaderContext,
  request: { url: string; loadAllPaths: boolean },
): Promise<FlowDocument[]> {
  const start = httpUrl(request.url, 'The GitBook URL');
  if (!request.loadAllPaths) {
    return [pageDocument(start.href, await fetchPage(ctx, start.href, 'The GitBook URL'), CONTENT)];
  }
  const prefix = start.pathname.replace(/\/+$/, '');
  const under = (text: string) => {
    const url = new URL(text);
    return (
      url.origin === start.origin &&
      (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`) || url.pathname === `${prefix}/`)
    );
  };
  return loadPages(ctx, await sitePages(ctx, start, under), CONTENT);
}
