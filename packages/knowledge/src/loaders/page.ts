import type { FlowDocument } from '@atelier/schemas';
import { htmlToText } from '../parse/html';
import { type LoaderContext, LoaderError, type LoaderHttpResponse } from './http';

export interface PageTextOptions {
  ignoreLinks: boolean;
  ignoreImages: boolean;
  /** Read only the first element these selectors match (`main` of a GitBook page), else the body. */
  content?: string[] | undefined;
}

/** Links and image sources made absolute against the page's URL. */
const absoluteUrls = (html: string, pageUrl: string) =>
  html.replace(
    /\b(href|src)\s*=\s*(["'])([^"']*)\2/gi,
    (whole, attr: string, quote: string, value: string) => {
      try {
        return `${attr}=${quote}${new URL(value.replace(/&amp;/g, '&'), pageUrl).href}${quote}`;
      } catch {
        return whole;
      }
    },
  );

/**
 * Readable text of a fetched page, read as uploaded .html files are (`htmlToText`); links as
 * "text [url]" and images as "alt [src]" (absolute URLs) unless ignored, in which case a link keeps its
 * text and an image goes.
 */
export function htmlText(html: string, pageUrl: string, options: PageTextOptions): string {
  return htmlToText(absoluteUrls(html, pageUrl), {
    links: options.ignoreLinks ? 'text' : 'href',
    images: !options.ignoreImages,
    content: options.content,
  });
}

/** The page's title: `<title>`, else og:title, else its first h1. */
export function htmlTitle(html: string, preferH1 = false): string {
  const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const title =
    /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ??
    /<meta[^>]+property=["']og:title["'][^>]+content=["']([^"']*)["']/i.exec(html)?.[1];
  const chosen = preferH1 ? (h1 ?? title) : (title ?? h1);
  return chosen ? htmlToText(chosen).replace(/\s+/g, ' ').trim() : '';
}

/** The answer as text, in the charset its Content-Type (or a `<meta charset>`) names, else UTF-8. */
export function decodePage(res: LoaderHttpResponse): string {
  const head = new TextDecoder('latin1').decode(res.body.subarray(0, 2048));
  const charset =
    /charset=["']?([\w-]+)/i.exec(res.headers['content-type'] ?? '')?.[1] ??
    /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1] ??
    'utf-8';
  try {
    return new TextDecoder(charset).decode(res.body);
  } catch {
    return new TextDecoder().decode(res.body);
  }
}

const TEXT_TYPES =
  /^(text\/|application\/(json|xml|javascript|x-ndjson|ld\+json)|[\w.-]+\/[\w.-]+\+(json|xml)$)/;

/** How a page is read: as HTML, as text, or not at all (images, PDFs, archives…). */
export function pageKind(res: LoaderHttpResponse): 'html' | 'text' | 'binary' {
  const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (TEXT_TYPES.test(type)) return 'text';
  if (type && type !== 'application/octet-stream') return 'binary';
  const head = res.body.subarray(0, 1024);
  if (head.includes(0)) return 'binary';
  return /<(!doctype html|html|body|head)[\s>]/i.test(new TextDecoder().decode(head)) ? 'html' : 'text';
}

/** GETs a page (2xx only) within the page limits. */
export async function fetchPage(ctx: LoaderContext, url: string, what: string): Promise<LoaderHttpResponse> {
  const res = await ctx.fetch({
    method: 'GET',
    url,
    headers: {
      accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
      'user-agent': 'AtelierBot/1.0 (document loader)',
    },
    timeoutMs: ctx.limits.timeoutMs,
    signal: ctx.signal,
    maxBytes: ctx.limits.pageBytes,
    what,
  });
  if (res.status < 200 || res.status > 299) {
    throw new LoaderError(502, 'page_unavailable', `${url} answered with status ${res.status}.`);
  }
  return res;
}

/** One page as a document `{ source, title }`; binary answers are refused with a 415. */
export function pageDocument(url: string, res: LoaderHttpResponse, options: PageTextOptions): FlowDocument {
  const kind = pageKind(res);
  if (kind === 'binary') {
    const type = res.headers['content-type']?.split(';')[0] ?? 'binary data';
    throw new LoaderError(
      415,
      'unsupported_content',
      `${url} is ${type}, not a web page or text: upload the file to a collection instead.`,
    );
  }
  const text = decodePage(res);
  if (kind === 'text') {
    return {
      pageContent: text.trim(),
      metadata: { source: url, title: new URL(url).pathname.split('/').pop() || url },
    };
  }
  return {
    pageContent: htmlText(text, res.url, options),
    metadata: { source: url, title: htmlTitle(text, options.content !== undefined) },
  };
}
