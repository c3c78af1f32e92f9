import { z } from 'zod';
import { anyValue, choice, defineNode, num, text } from '../fields';
import { conditionBranches } from '../conditions';

export const iterationNode = defineNode({
  type: 'iteration',
  label: 'Iteration',
  category: 'logic',
  description:
    'Runs the nodes placed inside it once for each item of a list, and collects what each run gives.',
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
    { name: 'items', label: 'Items', kind: 'text', required: true, help: 'A reference to a list.' },
    {
      name: 'output_selector',
      label: 'Result of each item',
      kind: 'text',
      required: false,
      placeholder: 'llm_ab12.response',
      help: "A child node's output (node id, a dot, the output name); empty takes the last child's outputs.",
    },
    {
      name: 'mode',
      label: 'Mode',
      kind: 'select',
      required: false,
      options: [
        { value: 'sequential', label: 'One item after the other' },
        { value: 'parallel', label: 'Several items at once' },
      ],
    },
    {
      name: 'concurrency',
      label: 'Items at once',
      kind: 'number',
      required: false,
      min: 1,
      max: 32,
      visibleWhen: { field: 'mode', equals: 'parallel' },
    },
    {
      name: 'error_mode',
      label: 'When an item fails',
      kind: 'select',
      required: false,
      options: [
        { value: 'stop', label: 'Stop: the iteration fails' },
        { value: 'continue', label: 'Continue: keep an error entry' },
        { value: 'drop', label: 'Drop: leave the item out' },
      ],
    },
  ],
  outputs: ['results', 'count'],
  isContainer: true,
  childOutputs: ['item', 'index'],
});

export const conditionalNode = defineNode({
  type: 'conditional',
  label: 'Conditional',
  category: 'logic',
  description:
    'Takes the first branch (if, elif…) whose conditions hold, else the else branch; nodes on the other branches are skipped.',
  fields: z
    .object({
      branches: conditionBranches.default(() => [{ id: 'if', logic: 'and' as const, conditions: [] }]),
    })
    .prefault({}),
  fieldMeta: [{ name: 'branches', label: 'Branches', kind: 'conditions', required: true }],
  outputs: ['branch'],
  branching: true,
});
