import type { Impl } from './shared';

/** Gives the response and the structured values; the run's outputs are those of its output nodes. */
export const output: Impl<'output'> = {
  run: ({ fields }) => ({ ...fields.structured_output, response: fields.response }),
};
