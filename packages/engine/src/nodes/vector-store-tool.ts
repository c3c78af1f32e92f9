import { nodeName } from '@atelier/schemas';
import { NodeInputError } from '../errors';
import { documentsText } from '../values/documents';
import { type Impl, knowledge } from './shared';
import { toolName } from './tool-name';

export const vectorStoreTool: Impl<'vector_store_tool'> = {
  async run({ fields, services, signal, node }) {
    if (!fields.query.trim()) throw new NodeInputError('Give a query to search the collection with.');
    const retrieve = knowledge(services, 'retrieve', nodeName(node));
    const documents = await retrieve({
      collectionId: fields.collection_id,
      query: fields.query,
      limit: fields.number_documents,
      signal,
    });
    return { documents };
  },
  tools: ({ fields, services, nodeId, node }) => [
    {
      nodeId,
      definition: {
        name: toolName(fields.name, 'search_knowledge'),
        description: fields.description,
        parameters: {
          type: 'object',
          properties: { query: { type: 'string', description: 'What to search for.' } },
          required: ['query'],
        },
      },
      invoke: async (args, signal) => {
        if (typeof args.query !== 'string' || !args.query.trim()) throw new NodeInputError('Give a query.');
        const retrieve = knowledge(services, 'retrieve', nodeName(node));
        const documents = await retrieve({
          collectionId: fields.collection_id,
          query: args.query,
          limit: fields.number_documents,
          signal,
        });
        return documents.length === 0 ? 'Nothing relevant was found.' : documentsText(documents);
      },
    },
  ],
};
