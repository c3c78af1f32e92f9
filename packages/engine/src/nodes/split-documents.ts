import type { FlowDocument } from '@atelier/schemas';
import { toDocuments } from '../values/documents';

/** Splits each document into chunks that keep the document's metadata plus the chunk's own. */
export function splitDocuments(
  value: unknown,
  split: (text: string) => { content: string; metadata?: Record<string, unknown> }[],
): FlowDocument[] {
  return toDocuments(value, 'documents to split').flatMap((doc) =>
    split(doc.pageContent).map((chunk) => ({
      pageContent: chunk.content,
      metadata: { ...doc.metadata, ...chunk.metadata },
    })),
  );
}
