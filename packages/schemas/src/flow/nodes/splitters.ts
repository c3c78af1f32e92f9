import { z } from 'zod';
import { anyValue, bool, choice, defineNode, type FieldMeta, jsonList, namedOptions, num } from '../fields';

const documentsMeta: FieldMeta = {
  name: 'documents_to_split',
  label: 'nodeCatalog.fields.documentsToSplit',
  kind: 'text',
  required: true,
  help: 'nodeCatalog.help.documentsToSplit',
};

const headerPair = z.tuple([z.string().min(1), z.string().min(1)]);
const pairs = (...list: [string, string][]) => list;

export const recursiveSplitterNode = defineNode({
  type: 'recursive_splitter',
  label: 'nodeCatalog.nodes.recursive_splitter.label',
  category: 'splitters',
  description: 'nodeCatalog.nodes.recursive_splitter.description',
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
    { name: 'chunk_size', label: 'nodeCatalog.fields.chunkSize', kind: 'number', required: false, min: 1 },
    {
      name: 'chunk_overlap',
      label: 'nodeCatalog.fields.chunkOverlap',
      kind: 'number',
      required: false,
      min: 0,
    },
    {
      name: 'length_function',
      label: 'nodeCatalog.fields.lengthFunction',
      kind: 'select',
      required: false,
      options: namedOptions('lengthFunction', 'characters', 'tokens'),
    },
    {
      name: 'separators',
      label: 'nodeCatalog.fields.separators',
      kind: 'json',
      required: false,
      help: 'nodeCatalog.help.separators',
    },
    {
      name: 'is_separator_regex',
      label: 'nodeCatalog.fields.isSeparatorRegex',
      kind: 'boolean',
      required: false,
      help: 'nodeCatalog.help.isSeparatorRegex',
    },
  ],
  outputs: ['documents'],
});

export const htmlSplitterNode = defineNode({
  type: 'html_splitter',
  label: 'nodeCatalog.nodes.html_splitter.label',
  category: 'splitters',
  description: 'nodeCatalog.nodes.html_splitter.description',
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
      label: 'nodeCatalog.fields.headersToSplitOn',
      kind: 'json',
      required: false,
      help: 'nodeCatalog.help.headersToSplitOn',
    },
    {
      name: 'return_each_element',
      label: 'nodeCatalog.fields.returnEachElement',
      kind: 'boolean',
      required: false,
    },
  ],
  outputs: ['documents'],
});

export const markdownSplitterNode = defineNode({
  type: 'markdown_splitter',
  label: 'nodeCatalog.nodes.markdown_splitter.label',
  category: 'splitters',
  description: 'nodeCatalog.nodes.markdown_splitter.description',
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
      label: 'nodeCatalog.fields.headersToSplitOn',
      kind: 'json',
      required: false,
      help: 'nodeCatalog.help.headersToSplitOn_markdownSplitter',
    },
    {
      name: 'return_each_line',
      label: 'nodeCatalog.fields.returnEachLine',
      kind: 'boolean',
      required: false,
    },
    { name: 'strip_headers', label: 'nodeCatalog.fields.stripHeaders', kind: 'boolean', required: false },
  ],
  outputs: ['documents'],
});
