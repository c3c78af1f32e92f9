import { z } from 'zod';
import { anyValue, choice, defineNode, num, text } from '../fields';
import { conditionBranches } from '../conditions';

export const iterationNode = defineNode({
  type: 'iteration',
  label: 'nodeCatalog.nodes.iteration.label',
  category: 'logic',
  description: 'nodeCatalog.nodes.iteration.description',
  fields: z
    .object({
      items: anyValue(),
      /** `node_id.output` of a child node: what each item gives. Empty: the outputs of the last child. */
      output_selector: text(),
      mode: choice(['sequential', 'parallel'], 'sequential'),
      concurrency: num(4, 1, 32),
      error_mode: choice(['stop', 'continue', 'drop'], 'stop'),
    })
    .prefault({}),
  fieldMeta: [
    {
      name: 'items',
      label: 'nodeCatalog.fields.items',
      kind: 'text',
      required: true,
      help: 'nodeCatalog.help.items',
    },
    {
      name: 'output_selector',
      label: 'nodeCatalog.fields.outputSelector',
      kind: 'text',
      required: false,
      placeholder: 'llm_ab12.response',
      help: 'nodeCatalog.help.outputSelector',
    },
    {
      name: 'mode',
      label: 'nodeCatalog.fields.mode_iteration',
      kind: 'select',
      required: false,
      options: [
        { value: 'sequential', label: 'nodeCatalog.options.mode.sequential' },
        { value: 'parallel', label: 'nodeCatalog.options.mode.parallel' },
      ],
    },
    {
      name: 'concurrency',
      label: 'nodeCatalog.fields.concurrency',
      kind: 'number',
      required: false,
      min: 1,
      max: 32,
      visibleWhen: { field: 'mode', equals: 'parallel' },
    },
    {
      name: 'error_mode',
      label: 'nodeCatalog.fields.errorMode',
      kind: 'select',
      required: false,
      options: [
        { value: 'stop', label: 'nodeCatalog.options.errorMode.stop' },
        { value: 'continue', label: 'nodeCatalog.options.errorMode.continue' },
        { value: 'drop', label: 'nodeCatalog.options.errorMode.drop' },
      ],
    },
  ],
  outputs: ['results', 'count'],
  isContainer: true,
  childOutputs: ['item', 'index'],
});

export const conditionalNode = defineNode({
  type: 'conditional',
  label: 'nodeCatalog.nodes.conditional.label',
  category: 'logic',
  description: 'nodeCatalog.nodes.conditional.description',
  fields: z
    .object({
      branches: conditionBranches.default(() => [{ id: 'if', logic: 'and' as const, conditions: [] }]),
    })
    .prefault({}),
  fieldMeta: [{ name: 'branches', label: 'nodeCatalog.fields.branches', kind: 'conditions', required: true }],
  outputs: ['branch'],
  branching: true,
});
