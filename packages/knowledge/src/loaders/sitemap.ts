import { gunzipSync } from 'node:zlib';
import type { FlowDocument } from '@atelier/schemas';
import { XMLParser } from 'fast-xml-parser';
import { httpUrl, type LoaderContext, LoaderError, mapLimit } from './http';
import { decodePage, fetchPage, pageDocument, type PageTextOptions } from './page';

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  processEntities: true,
  // A <loc> may write its `&` as `&#38;`: character references are decoded only with this on.
  htmlEntities: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

type Loc = { loc?: unknown };
interface SitemapXml {
  urlset?: { url?: Loc[] };
  sitemapindex?: { sitemap?: Loc[] };
}

const locs = (items: Loc[] | undefined) =>
  (items ?? []).map((item) => String(item.loc ?? '').trim()).filter((loc) => /^https?:\/\//i.test(loc));

/** A sitemap's page URLs and nested sitemaps, or null when the answer is not a sitemap. */
async function readSitemap(ctx: LoaderContext, url: string, what: string) {
  const res = await fetchPage(ctx, url, what);
  let body = res.body;
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      body = gunzipSync(body, { maxOutputLength: ctx.limits.pageBytes });
    } catch {
      throw new LoaderError(422, 'invalid_sitemap', `${url} is a broken or too large .gz sitemap.`);
    }
  }
  let xml: SitemapXml;
  try {
    xml = parser.parse(decodePage({ ...res, body })) as SitemapXml;
  } catch {
    return null;
  }
  if (!xml?.urlset && !xml?.sitemapindex) return null;
  return { pages: locs(xml.urlset?.url), sitemaps: locs(xml.sitemapindex?.sitemap) };
}

/**
 * The page URLs of a sitemap and of the sitemaps its index names (breadth first, at most
 * `sitemapDepth` levels below and `maxSitemaps` files), deduplicated, kept by `keep`, at most `max`.
 */
export async function sitemapUrls(
  ctx: LoaderContext,
  root: string,
  keep: (url: string) => boolean,
  max: number,
): Promise<string[]> {
  const pages = new Set<string>();
  const seen = new Set([root]);
  let level = [root];
  let read = 0;
  for (let depth = 0; level.length > 0 && depth <= ctx.limits.sitemapDepth; depth++) {
    const next: string[] = [];
    for (const url of level) {
      if (pages.size >= max || read >= ctx.limits.maxSitemaps) return [...pages];
      read++;
      const found = await readSitemap(ctx, url, depth === 0 ? 'The sitemap URL' : 'A nested sitemap URL');
      if (!found) {
        if (depth === 0) throw new LoaderError(422, 'invalid_sitemap', `${url} is not an XML sitemap.`);
        continue;
      }
      for (const page of found.pages) if (pages.size < max && keep(page)) pages.add(page);
      for (const sitemap of found.sitemaps) {
        if (seen.has(sitemap)) continue;
        seen.add(sitemap);
        next.push(sitemap);
      }
    }
    level = next;
  }
  return [...pages];
}

const globRegex = (glob: string) =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

/**
 * The node's "Only URLs containing": a URL is kept when it contains one of the parts; a part with `*`
 * is a glob on the whole URL (`https://example.com/docs/*`). No parts keeps every URL.
 */
export function urlFilter(parts: string[]): (url: string) => boolean {
  const tests = parts.map((part) =>
    part.includes('*') ? (url: string) => globRegex(part).test(url) : (url: string) => url.includes(part),
  );
  return (url) => tests.length === 0 || tests.some((test) => test(url));
}

/**
 * Loads pages one document each, a few at a time. A page that fails (an error status, binary content,
 * refused by the guard) is left out unless every page fails; a cancellation stops everything.
 */
export async function loadPages(ctx: LoaderContext, urls: string[], options: PageTextOptions) {
  let firstError: unknown = null;
  const documents = await mapLimit(urls, ctx.limits.concurrency, async (url) => {
    try {
      return pageDocument(url, await fetchPage(ctx, url, 'A page URL'), options);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      firstError ??= error;
      return null;
    }
  });
  const loaded = documents.filter((doc): doc is FlowDocument => doc !== null && doc.pageContent !== '');
  if (urls.length > 0 && documents.every((doc) => doc === null)) throw firstError;
  return loaded;
}

/** The sitemap scraper: every page the sitemap (and its nested sitemaps) lists, up to `maxPages`. */
export async function loadSitemap(
  ctx: LoaderContext,
  request: { url: string; filterUrls: string[]; maxPages: number },
): Promise<FlowDocument[]> {
  const root = httpUrl(request.url, 'The sitemap URL').href;
  const max = Math.max(1, Math.floor(request.maxPages));
  const urls = await sitemapUrls(ctx, root, urlFilter(request.filterUrls), max);
  return loadPages(ctx, urls, { ignoreLinks: true, ignoreImages: true });
}
