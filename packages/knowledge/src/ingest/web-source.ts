import { extname } from 'node:path';
import { assertSafeUrl } from '@atelier/net';
import { KNOWLEDGE_EXTENSIONS } from '@atelier/schemas/constants';
import type { KnowledgeDeps } from '../facade';
import { guardedLoaderFetch } from '../loaders/guarded-fetch';
import { asLoaderError, httpUrl, LoaderError, loaderContext } from '../loaders/http';
import { fetchPage } from '../loaders/page';
import { sitemapUrls, urlFilter } from '../loaders/sitemap';
import { KnowledgeError } from '../stores/vector-store';

/** The most bytes a web page added by its address may have (a linked PDF included). */
export const WEB_DOCUMENT_BYTES = 20 * 1024 * 1024;

/** File endings for the answers whose address names none the parser knows, by their media type. */
const ENDINGS: Readonly<Record<string, string>> = {
  'text/html': '.html',
  'application/xhtml+xml': '.html',
  'text/markdown': '.md',
  'text/csv': '.csv',
  'application/json': '.json',
  'application/pdf': '.pdf',
  'text/plain': '.txt',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'image/gif': '.gif',
};

/**
 * A web page added to a collection by its address, fetched as the loaders fetch (through the SSRF
 * guard with the loaders' policy, redirects re-checked, 2xx only), as the bytes and name the parser
 * reads: the address's own file name when it names a known type (`guide.pdf`), else one made from
 * the answer's media type (`page.html`). The parser then decides by the content, as for an upload.
 */
export async function fetchWebDocument(deps: KnowledgeDeps, url: string, signal: AbortSignal) {
  const ctx = loaderContext(
    {
      fetch: guardedLoaderFetch(deps.loaderPolicy),
      resolveTool: () => Promise.resolve(null),
      limits: { pageBytes: WEB_DOCUMENT_BYTES },
    },
    signal,
  );
  // The guard's errors (a timeout, a refused address) as the loaders' (worker.ts retries the first).
  const res = await fetchPage(ctx, url, 'The page URL').catch((error: unknown) => {
    throw asLoaderError(error);
  });
  const mimeType = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const name = decodeURIComponent(new URL(res.url).pathname.split('/').pop() ?? '') || 'page';
  const known = extname(name).toLowerCase() in KNOWLEDGE_EXTENSIONS;
  const filename = known ? name : `${name}${ENDINGS[mimeType] ?? '.html'}`;
  return { data: res.body, filename, mimeType: mimeType || undefined };
}

/** The longest a sitemap and its nested sitemaps may take to read (the request waits for them). */
export const SITEMAP_READ_MS = 60_000;

/** What a collection adds from the web: one page, or the pages its sitemap lists. */
export interface WebSource {
  url: string;
  /** `url` is a sitemap (or a sitemap index): its pages are added, at most `maxPages`. */
  sitemap?: boolean | undefined;
  maxPages?: number | undefined;
  /** Only pages whose address contains one of these (a part with `*` is a glob on the whole URL). */
  filter?: string[] | undefined;
}

/**
 * The addresses a web source adds: the page itself, checked now against the loaders' policy (a
 * private address is refused before anything is queued), or the pages of its sitemap, read now (its
 * nested sitemaps too, within SITEMAP_READ_MS), filtered, at most `maxPages`. Errors are
 * `KnowledgeError`s.
 */
export async function webSourcePages(
  deps: KnowledgeDeps,
  source: WebSource,
  signal: AbortSignal,
  readMs = SITEMAP_READ_MS,
): Promise<string[]> {
  const deadline = AbortSignal.timeout(readMs);
  try {
    const url = httpUrl(source.url, 'The page URL').href;
    if (!source.sitemap) {
      await assertSafeUrl(url, deps.loaderPolicy, 'The page URL');
      return [url];
    }
    const ctx = loaderContext(
      { fetch: guardedLoaderFetch(deps.loaderPolicy), resolveTool: () => Promise.resolve(null) },
      AbortSignal.any([signal, deadline]),
    );
    // Only its http(s) addresses are pages (sitemapUrls leaves out `javascript:` and the like).
    const pages = await sitemapUrls(ctx, url, urlFilter(source.filter ?? []), source.maxPages ?? 50);
    if (pages.length === 0) {
      const kept = source.filter?.length ? ' that the filter keeps' : '';
      throw new KnowledgeError(422, 'no_pages', `The sitemap ${url} lists no page${kept}.`);
    }
    return pages;
  } catch (error) {
    if (deadline.aborted && !signal.aborted) {
      const seconds = readMs / 1000;
      throw new KnowledgeError(504, 'sitemap_timeout', `The sitemap could not be read within ${seconds} s.`);
    }
    const e = asLoaderError(error);
    throw e instanceof LoaderError ? new KnowledgeError(e.status, e.code, e.detail) : e;
  }
}
