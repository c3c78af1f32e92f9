import { nodeName } from '@atelier/schemas';
import { toDocuments } from '../values/documents';
import { type Impl, knowledge } from './shared';
import { storeTarget } from './store-target';

export const vectorStoreInsert: Impl<'vector_store_insert'> = {
  async run({ fields, services, signal, node }) {
    const insert = knowledge(services, 'insert', nodeName(node));
    const result = await insert({
      documents: toDocuments(fields.documents),
      target: storeTarget(fields),
      embeddingsModelId: fields.embeddings_model_id || undefined,
      smartInsertion: fields.smart_insertion,
      signal,
    });
    return { inserted: result.inserted, collection_id: result.collectionId };
  },
};
