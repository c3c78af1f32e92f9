import { nodeName } from '@atelier/schemas';
import { type Impl, knowledge } from './shared';

export const gitbookLoader: Impl<'gitbook_loader'> = {
  async run({ fields, services, signal, node }) {
    const load = knowledge(services, 'load', nodeName(node));
    return {
      documents: await load({
        loader: 'gitbook',
        url: fields.url,
        loadAllPaths: fields.load_all_paths,
        signal,
      }),
    };
  },
};
