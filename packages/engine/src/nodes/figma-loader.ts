import { nodeName } from '@atelier/schemas';
import { NodeInputError } from '../errors';
import { commaList, type Impl, knowledge } from './shared';

export const figmaLoader: Impl<'figma_loader'> = {
  async run({ fields, services, signal, node }) {
    if (!fields.access_token && !fields.toolId) {
      throw new NodeInputError('The Figma loader needs an access token or a configured Figma tool.');
    }
    const load = knowledge(services, 'load', nodeName(node));
    const documents = await load({
      loader: 'figma',
      fileKey: fields.file_key,
      nodeIds: commaList(fields.node_ids),
      accessToken: fields.access_token || undefined,
      toolId: fields.toolId || undefined,
      signal,
    });
    return { documents };
  },
};
