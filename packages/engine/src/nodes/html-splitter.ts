import { htmlSplit } from '../splitters/html';
import type { Impl } from './shared';
import { splitDocuments } from './split-documents';

export const htmlSplitter: Impl<'html_splitter'> = {
  run({ fields }) {
    const options = { headers: fields.headers_to_split_on, returnEachElement: fields.return_each_element };
    return { documents: splitDocuments(fields.documents_to_split, (text) => htmlSplit(text, options)) };
  },
};
