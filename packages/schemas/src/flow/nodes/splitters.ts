import { z } from 'zod';
import { anyValue, bool, choice, defineNode, type FieldMeta, jsonList, num, options } from '../fields';

const documentsMeta: FieldMeta = {
  name: 'documents_to_split',
  label: 'Documents to split',
  kind: 'text',
  required: true,
  help: 'A reference to a text, a document or a list of documents.',
};

const headerPair = z.tuple([z.string().min(1), z.string().min(1)]);
const pairs = (...list: [string, string][]) => list;

export const recursiveSplitterNode = defineNode({
  type: 'recursive_splitter',
  label: 'Recursive character splitter',
  category: 'splitters',
  description:
    'Splits text into chunks of at most chunk_size, trying paragraph, then line, then word boundaries.',
  fields: z
    .object({
      documents_to_split: anyValue(),
      chunk_size: num(1000, 1, 1_000_000),
      chunk_overlap: num(100, 0, 1_000_000),
      length_function: choice(['characters', 'tokens'], 'characters'),
      is_separator_regex: bool(false),
      separators: jsonList(z.string(), () => ['\n\n', '\n', ' ', '']),
    })
    .prefault({}),
  fieldMeta: [
    documentsMeta,
    { name: 'chunk_size', label: 'Chunk size', kind: 'number', required: false, min: 1 },
    { name: 'chunk_overlap', label: 'Chunk overlap', kind: 'number', required: false, min: 0 },
    {
      name: 'length_function',
      label: 'Length in',
      kind: 'select',
      required: false,
      options: options('characters', 'tokens'),
    },
    {
      name: 'separators',
      label: 'Separators',
      kind: 'json',
      required: false,
      help: 'A JSON list, tried in order.',
    },
    {
      name: 'is_separator_regex',
      label: 'Separators are regular expressions',
      kind: 'boolean',
      required: false,
      help: 'RE2 syntax, matched in linear time: lookarounds and backreferences are not accepted.',
    },
  ],
  outputs: ['documents'],
});

export const htmlSplitterNode = defineNode({
  type: 'html_splitter',
  label: 'HTML header splitter',
  category: 'splitters',
  description: "Splits HTML into one document per section, each section's headers kept as metadata.",
  fields: z
    .object({
      documents_to_split: anyValue(),
      headers_to_split_on: jsonList(headerPair, () =>
        pairs(['h1', 'Header 1'], ['h2', 'Header 2'], ['h3', 'Header 3']),
      ),
      return_each_element: bool(false),
    })
    .prefault({}),
  fieldMeta: [
    documentsMeta,
    {
      name: 'headers_to_split_on',
      label: 'Headers to split on',
      kind: 'json',
      required: false,
      help: 'Pairs of a tag and the metadata key that holds its text, e.g. [["h1", "Header 1"]].',
    },
    {
      name: 'return_each_element',
      label: 'One document per element',
      kind: 'boolean',
      required: false,
    },
  ],
  outputs: ['documents'],
});

export const markdownSplitterNode = defineNode({
  type: 'markdown_splitter',
  label: 'Markdown header splitter',
  category: 'splitters',
  description: "Splits Markdown into one document per section, each section's headers kept as metadata.",
  fields: z
    .object({
      documents_to_split: anyValue(),
      headers_to_split_on: jsonList(headerPair, () =>
        pairs(['#', 'Header 1'], ['##', 'Header 2'], ['###', 'Header 3']),
      ),
      return_each_line: bool(false),
      strip_headers: bool(true),
    })
    .prefault({}),
  fieldMeta: [
    documentsMeta,
    {
      name: 'headers_to_split_on',
      label: 'Headers to split on',
      kind: 'json',
      required: false,
      help: 'Pairs of a marker and the metadata key that holds its text, e.g. [["#", "Header 1"]].',
    },
    { name: 'return_each_line', label: 'One document per line', kind: 'boolean', required: false },
    { name: 'strip_headers', label: 'Remove headers from the text', kind: 'boolean', required: false },
  ],
  outputs: ['documents'],
});
