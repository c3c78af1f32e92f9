import type { FlowDocument } from '@atelier/schemas';
import { httpUrl, type LoaderContext } from './http';
import { fetchPage, pageDocument } from './page';

/** The web scraper: one page, one document. */
export async function loadWebPage(
  ctx: LoaderContext,
  request: { url: string; ignoreLinks: boolean; ignoreImages: boolean },
): Promise<FlowDocument[]> {
  const url = httpUrl(request.url, 'The web scraper URL').href;
  const res = await fetchPage(ctx, url, 'The web scraper URL');
  return [pageDocument(url, res, request)];
}
