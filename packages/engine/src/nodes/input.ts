import { readInputs } from '../values/input-coercion';
import type { Impl } from './shared';

/** Checks and coerces the run's inputs against the custom fields; gives query, history and each field. */
export const input: Impl<'input'> = {
  run: (ctx) => readInputs(ctx.fields, ctx.inputs),
};
