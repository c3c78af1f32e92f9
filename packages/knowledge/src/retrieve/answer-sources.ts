import type { AnswerSource, RetrievedChunk } from '@atelier/schemas';

/** How much of a passage an answer's source shows. */
export const SOURCE_EXCERPT_CHARS = 280;
/** The most sources one answer keeps (the best scores). */
export const MAX_ANSWER_SOURCES = 20;

/**
 * A retrieved chunk as a source shown under an answer (a simple chatbot's or a flow's), with its PDF
 * page, spreadsheet sheet, presentation slide, book chapter or email attachment when its metadata has
 * one (the chunk metadata convention).
 */
export function answerSource(
  collection: { id: string; name: string },
  chunk: Pick<RetrievedChunk, 'content' | 'score' | 'source' | 'metadata'>,
): AnswerSource {
  const { page, sheet, slide, chapter, attachment } = chunk.metadata;
  const position = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n > 0;
  const name = (s: unknown): s is string => typeof s === 'string' && s !== '';
  return {
    collection_id: collection.id,
    collection_name: collection.name,
    document_id: chunk.source.document_id,
    filename: chunk.source.filename,
    chunk_index: chunk.source.chunk_index,
    ...(position(page) ? { page: page as number } : {}),
    ...(name(sheet) ? { sheet } : {}),
    ...(position(slide) ? { slide: slide as number } : {}),
    ...(name(chapter) ? { chapter } : {}),
    ...(name(attachment) ? { attachment } : {}),
    score: chunk.score,
    excerpt: chunk.content.slice(0, SOURCE_EXCERPT_CHARS),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * The sources in a knowledge retrieve node's `documents` output, as the engine's retrieve service
 * writes their metadata (collection id and name, document, file, chunk, score). Documents that did not
 * come from a collection (made by other nodes) are left out.
 */
export function sourcesOfDocuments(documents: unknown): AnswerSource[] {
  if (!Array.isArray(documents)) return [];
  return documents.flatMap((doc): AnswerSource[] => {
    if (!isRecord(doc) || !isRecord(doc.metadata) || typeof doc.pageContent !== 'string') return [];
    const m = doc.metadata;
    const id = text(m.collection_id);
    if (!id || typeof m.score !== 'number') return [];
    const index = m.chunk_index;
    return [
      answerSource(
        { id, name: text(m.collection_name) ?? '' },
        {
          content: doc.pageContent,
          score: m.score,
          metadata: m,
          source: {
            collection_id: id,
            document_id: text(m.document_id),
            filename: text(m.filename),
            chunk_index: typeof index === 'number' && Number.isInteger(index) ? index : null,
          },
        },
      ),
    ];
  });
}

const sourceKey = (s: AnswerSource) => `${s.collection_id}|${s.document_id}|${s.chunk_index}|${s.excerpt}`;

/** Two lists of sources as one: each passage once (its best score), best first, at most MAX_ANSWER_SOURCES. */
export function mergeSources(a: readonly AnswerSource[], b: readonly AnswerSource[]): AnswerSource[] {
  const best = new Map<string, AnswerSource>();
  for (const s of [...a, ...b]) {
    const key = sourceKey(s);
    const seen = best.get(key);
    if (!seen || s.score > seen.score) best.set(key, s);
  }
  return [...best.values()].sort((x, y) => y.score - x.score).slice(0, MAX_ANSWER_SOURCES);
}
