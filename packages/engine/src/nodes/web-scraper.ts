import { nodeName } from '@atelier/schemas';
import { documentsText } from '../values/documents';
import { type Impl, knowledge } from './shared';

export const webScraper: Impl<'web_scraper'> = {
  async run({ fields, services, signal, node }) {
    const load = knowledge(services, 'load', nodeName(node));
    const documents = await load({
      loader: 'web',
      url: fields.url,
      ignoreLinks: fields.ignore_links,
      ignoreImages: fields.ignore_images,
      signal,
    });
    return { documents, content: documentsText(documents) };
  },
};
