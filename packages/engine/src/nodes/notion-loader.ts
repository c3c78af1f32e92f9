import { nodeName } from '@atelier/schemas';
import { type Impl, knowledge } from './shared';

export const notionLoader: Impl<'notion_loader'> = {
  async run({ fields, services, signal, node }) {
    const load = knowledge(services, 'load', nodeName(node));
    const documents = await load({
      loader: 'notion',
      integrationToken: fields.integration_token,
      databaseId: fields.database_id,
      filter: fields.filter_object,
      timeoutMs: fields.request_timeout_sec * 1000,
      signal,
    });
    return { documents };
  },
};
