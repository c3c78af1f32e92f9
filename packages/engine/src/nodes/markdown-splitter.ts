import { markdownSplit } from '../splitters/markdown';
import type { Impl } from './shared';
import { splitDocuments } from './split-documents';

export const markdownSplitter: Impl<'markdown_splitter'> = {
  run({ fields }) {
    const options = {
      headers: fields.headers_to_split_on,
      returnEachLine: fields.return_each_line,
      stripHeaders: fields.strip_headers,
    };
    return { documents: splitDocuments(fields.documents_to_split, (text) => markdownSplit(text, options)) };
  },
};
