import { z } from 'zod';
import { defineNode, jsonObject, text } from '../fields';
import { inputCustomField } from '../values';

export const inputNode = defineNode({
  type: 'input',
  label: 'nodeCatalog.nodes.input.label',
  category: 'io',
  description: 'nodeCatalog.nodes.input.description',
  fields: z
    .array(inputCustomField)
    .max(50)
    .default(() => []),
  fieldMeta: [{ name: 'fields', label: 'nodeCatalog.fields.fields', kind: 'custom-fields', required: false }],
  outputs: ['query', 'history'],
});

export const outputNode = defineNode({
  type: 'output',
  label: 'nodeCatalog.nodes.output.label',
  category: 'io',
  description: 'nodeCatalog.nodes.output.description',
  fields: z
    .object({
      response: text(),
      /** More named values; each may hold references. */
      structured_output: jsonObject(),
    })
    .prefault({}),
  fieldMeta: [
    { name: 'response', label: 'nodeCatalog.fields.response', kind: 'textarea', required: false },
    {
      name: 'structured_output',
      label: 'nodeCatalog.fields.structuredOutput',
      kind: 'json',
      required: false,
      help: 'nodeCatalog.help.structuredOutput',
    },
  ],
  outputs: ['response'],
});
