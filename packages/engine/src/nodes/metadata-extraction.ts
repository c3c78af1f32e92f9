import { walkPath } from '../references';
import { toDocuments } from '../values/documents';
import type { Impl } from './shared';

/** One value for one document, a list of values for a list (missing keys give null). */
export const metadataExtraction: Impl<'metadata_extraction'> = {
  run({ fields }) {
    const path = fields.metadata_field.split('.').filter((k) => k !== '');
    const documents = toDocuments(fields.document, 'document');
    const values = documents.map((d) => walkPath(d.metadata, path) ?? null);
    return { value: Array.isArray(fields.document) ? values : (values[0] ?? null) };
  },
};
