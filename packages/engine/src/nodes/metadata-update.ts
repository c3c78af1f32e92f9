import { toDocuments } from '../values/documents';
import type { Impl } from './shared';

/** Sets the given metadata on every document; without overwrite, values already there are kept. */
export const metadataUpdate: Impl<'metadata_update'> = {
  run({ fields }) {
    const documents = toDocuments(fields.documents).map((d) => ({
      pageContent: d.pageContent,
      metadata: fields.overwrite
        ? { ...d.metadata, ...fields.metadata }
        : { ...fields.metadata, ...d.metadata },
    }));
    return { documents };
  },
};
