import { nodeName, partsText } from '@atelier/schemas';
import { stringifyValue } from '../references';
import { documentsText } from '../values/documents';
import { toChatMessages } from '../values/messages';
import { type Impl, knowledge } from './shared';

/**
 * The earlier questions of a chatflow's conversation, when the node searches the run's own question
 * (the input's query, as the Q&A template does): a follow-up is then searched with them too. A node
 * searching anything else searches that alone.
 */
function earlierQuestions(query: string, inputs: Readonly<Record<string, unknown>>): string[] {
  const asked = inputs.query === undefined || inputs.query === null ? '' : stringifyValue(inputs.query);
  if (!asked.trim() || asked.trim() !== query.trim()) return [];
  try {
    return toChatMessages(inputs.history).flatMap((m) => (m.role === 'user' ? [partsText(m.content)] : []));
  } catch {
    // The input node refuses a malformed history; here it only means no earlier questions.
    return [];
  }
}

export const knowledgeRetrieve: Impl<'knowledge_retrieve'> = {
  async run({ fields, services, signal, node, inputs }) {
    const retrieve = knowledge(services, 'retrieve', nodeName(node));
    const documents = await retrieve({
      collectionId: fields.collection_id,
      query: fields.query,
      earlier: earlierQuestions(fields.query, inputs),
      limit: fields.number_documents,
      filter: fields.filter_content || undefined,
      signal,
    });
    return { documents, context: documentsText(documents) };
  },
};
