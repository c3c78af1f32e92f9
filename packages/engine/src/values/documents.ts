import type { FlowDocument } from '@atelier/schemas';
import { NodeInputError } from '../errors';
import { stringifyValue } from '../references';
import { isRecord } from './files';

const CONTENT_KEYS = ['pageContent', 'page_content', 'content', 'text'] as const;

function toDocument(value: unknown): FlowDocument | null {
  if (typeof value === 'string') return { pageContent: value, metadata: {} };
  if (!isRecord(value)) return null;
  for (const key of CONTENT_KEYS) {
    const content = value[key];
    if (content === undefined) continue;
    return {
      pageContent: stringifyValue(content),
      metadata: isRecord(value.metadata) ? { ...value.metadata } : {},
    };
  }
  return null;
}

/**
 * Documents from what a field received: a text, a document ({pageContent, metadata}, also page_content,
 * content or text), a list of those, or JSON text holding them.
 */
export function toDocuments(value: unknown, what = 'documents'): FlowDocument[] {
  if (value === null || value === undefined || value === '') return [];
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
      try {
        return toDocuments(JSON.parse(trimmed) as unknown, what);
      } catch {
        // Plain text that happens to start with a bracket.
      }
    }
    return [{ pageContent: value, metadata: {} }];
  }
  const list = Array.isArray(value) ? value : [value];
  return list.map((item, i) => {
    const doc = toDocument(item);
    if (!doc) throw new NodeInputError(`Item ${i + 1} of the ${what} is not a document or a text.`);
    return doc;
  });
}

/** The documents' text, one after the other. */
export const documentsText = (docs: readonly FlowDocument[]): string =>
  docs.map((d) => d.pageContent).join('\n\n---\n\n');
