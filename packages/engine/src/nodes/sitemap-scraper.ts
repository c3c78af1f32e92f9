import { nodeName } from '@atelier/schemas';
import { commaList, type Impl, knowledge } from './shared';

export const sitemapScraper: Impl<'sitemap_scraper'> = {
  async run({ fields, services, signal, node }) {
    const load = knowledge(services, 'load', nodeName(node));
    const documents = await load({
      loader: 'sitemap',
      url: fields.url,
      filterUrls: commaList(fields.filter_urls),
      maxPages: fields.max_pages,
      signal,
    });
    return { documents };
  },
};
