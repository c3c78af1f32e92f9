import { nodeName } from '@atelier/schemas';
import { documentsText } from '../values/documents';
import { type Impl, knowledge } from './shared';

export const knowledgeRetrieve: Impl<'knowledge_retrieve'> = {
  async run({ fields, services, signal, node }) {
    const retrieve = knowledge(services, 'retrieve', nodeName(node));
    const documents = await retrieve({
      collectionId: fields.collection_id,
      query: fields.query,
      limit: fields.number_documents,
      filter: fields.filter_content || undefined,
      signal,
    });
    return { documents, context: documentsText(documents) };
  },
};
