import { z } from 'zod';
import { defineNode, jsonObject, text } from '../fields';
import { inputCustomField } from '../values';

export const inputNode = defineNode({
  type: 'input',
  label: 'Input',
  category: 'io',
  description:
    "Where a run starts: the user's message (query), the conversation so far (history) and the custom fields the chatbot asks for.",
  fields: z
    .array(inputCustomField)
    .max(50)
    .default(() => []),
  fieldMeta: [{ name: 'fields', label: 'Custom fields', kind: 'custom-fields', required: false }],
  outputs: ['query', 'history'],
});

export const outputNode = defineNode({
  type: 'output',
  label: 'Output',
  category: 'io',
  description: 'What the run answers: the response shown to the user, plus any structured values.',
  fields: z
    .object({
      response: text(),
      /** More named values; each may hold references. */
      structured_output: jsonObject(),
    })
    .prefault({}),
  fieldMeta: [
    { name: 'response', label: 'Response', kind: 'textarea', required: false },
    {
      name: 'structured_output',
      label: 'Structured output',
      kind: 'json',
      required: false,
      help: 'An object of named values added to the outputs.',
    },
  ],
  outputs: ['response'],
});
