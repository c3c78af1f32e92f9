import { invalid } from './errors';
import { isRecord, randomId, requireModel, requireObject, requireString, sendJson } from './exchange';
import { passModelSwitches } from './model-switches';
import { countWords, tokenize } from './text';
import type { Exchange } from './types';

/** The share of distinct query words found in the document: deterministic and easy to reason about. */
function score(queryWords: Set<string>, document: string): number {
  if (queryWords.size === 0) return 0;
  const words = new Set(tokenize(document));
  return [...queryWords].filter((word) => words.has(word)).length / queryWords.size;
}

/** POST /v1/rerank (Jina, Cohere v1) and /v2/rerank (Cohere v2): one answer carrying both shapes' fields. */
export async function rerank(ex: Exchange): Promise<void> {
  const body = requireObject(ex.json);
  const model = requireModel(ex, body);
  const query = requireString(body, 'query');
  if (!Array.isArray(body.documents)) throw invalid("Missing required parameter: 'documents'.");
  const documents = body.documents.map((document: unknown) => {
    if (typeof document === 'string') return document;
    if (isRecord(document) && typeof document.text === 'string') return document.text;
    throw invalid('documents must be strings or objects with a text field');
  });
  const topN = typeof body.top_n === 'number' ? body.top_n : documents.length;
  if (!(await passModelSwitches(ex, model, false))) return;

  const queryWords = new Set(tokenize(query));
  const results = documents
    .map((text, index) => ({
      index,
      relevance_score: score(queryWords, text),
      ...(body.return_documents === true ? { document: { text } } : {}),
    }))
    // Ties keep input order, so equal scores stay predictable.
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
    .slice(0, topN);
  const tokens = countWords(query) + documents.reduce((sum, text) => sum + countWords(text), 0);
  sendJson(ex.res, 200, {
    id: randomId(''),
    model,
    results,
    usage: { total_tokens: tokens },
    meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
  });
}
