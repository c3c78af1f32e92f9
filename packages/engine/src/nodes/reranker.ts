import { toDocuments } from '../values/documents';
import type { Impl } from './shared';

/** Orders the documents by the rerank model's score and keeps the top_k best, scores in metadata. */
export const reranker: Impl<'reranker'> = {
  async run({ fields, services, signal }) {
    const documents = toDocuments(fields.documents);
    if (documents.length === 0) return { documents: [] };
    const { results } = await services.rerank({
      modelId: fields.model_id,
      query: fields.query,
      documents: documents.map((d) => d.pageContent),
      topK: fields.top_k,
      signal,
    });
    const ranked = results
      .filter((r) => Number.isInteger(r.index) && r.index >= 0 && r.index < documents.length)
      .sort((a, b) => b.score - a.score)
      .slice(0, fields.top_k)
      .map((r) => {
        const doc = documents[r.index]!;
        return { pageContent: doc.pageContent, metadata: { ...doc.metadata, relevance_score: r.score } };
      });
    return { documents: ranked };
  },
};
