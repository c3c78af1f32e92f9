import { NodeInputError } from '../errors';
import type { StoreTarget } from '../services';

/** Where a vector-store node reads or writes, from its mode and the fields that go with it. */
export function storeTarget(fields: {
  mode: 'collection' | 'custom';
  collection_id: string;
  rag_connector_id: string;
  collection_name: string;
}): StoreTarget {
  if (fields.mode === 'collection') {
    if (!fields.collection_id) throw new NodeInputError('Choose a collection.');
    return { mode: 'collection', collectionId: fields.collection_id };
  }
  if (!fields.rag_connector_id || !fields.collection_name) {
    throw new NodeInputError('Choose a connector and name the collection.');
  }
  return { mode: 'custom', connectorId: fields.rag_connector_id, collectionName: fields.collection_name };
}
