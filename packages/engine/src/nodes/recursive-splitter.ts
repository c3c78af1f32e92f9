import { NodeInputError } from '../errors';
import { recursiveSplit } from '../splitters/recursive';
import { separatorProblem, userRegexProblem } from '../user-regex';
import type { Impl } from './shared';
import { splitDocuments } from './split-documents';

let tokenCounter: Promise<(text: string) => number> | undefined;
/** The o200k tokenizer, loaded on first use (it ships with the package: no download). */
const loadTokenCounter = () =>
  (tokenCounter ??= import('gpt-tokenizer').then((m) => (text: string) => m.encode(text).length));

export const recursiveSplitter: Impl<'recursive_splitter'> = {
  async run({ fields }) {
    if (fields.chunk_overlap >= fields.chunk_size) {
      throw new NodeInputError(
        `The chunk overlap (${fields.chunk_overlap}) must be smaller than the chunk size (${fields.chunk_size}).`,
      );
    }
    if (fields.is_separator_regex) {
      fields.separators.forEach((s, i) => {
        const problem = userRegexProblem(s);
        if (problem) throw new NodeInputError(separatorProblem(i, s, problem));
      });
    }
    const length =
      fields.length_function === 'tokens' ? await loadTokenCounter() : (text: string) => text.length;
    const options = {
      chunkSize: fields.chunk_size,
      chunkOverlap: fields.chunk_overlap,
      separators: fields.separators,
      isSeparatorRegex: fields.is_separator_regex,
      length,
    };
    const documents = splitDocuments(fields.documents_to_split, (text) =>
      recursiveSplit(text, options).map((content) => ({ content })),
    );
    return { documents };
  },
};
