import { evaluateExpression } from '../calculator';
import { NodeInputError } from '../errors';
import type { Impl } from './shared';

export const calculatorTool: Impl<'calculator_tool'> = {
  run({ fields }) {
    if (!fields.expression.trim()) throw new NodeInputError('Give an expression to evaluate.');
    return { result: evaluateExpression(fields.expression) };
  },
  tools: ({ nodeId }) => [
    {
      nodeId,
      definition: {
        name: 'calculator',
        description:
          'Evaluates an arithmetic expression exactly. Supports + - * / % ^, parentheses, and sqrt, cbrt, abs, ' +
          'round(x, digits), floor, ceil, min, max, pow, exp, ln, log(x, base), log10, log2, sin, cos, tan, pi, e.',
        parameters: {
          type: 'object',
          properties: { expression: { type: 'string', description: 'For example (12.5 * 4) / sqrt(16)' } },
          required: ['expression'],
        },
      },
      invoke: async (args) => {
        if (typeof args.expression !== 'string') throw new NodeInputError('Give the expression as text.');
        return String(evaluateExpression(args.expression));
      },
    },
  ],
};
