import { chooseBranch } from '../conditions';
import type { Impl } from './shared';

/** Gives the handle of the branch taken; the executor follows only the edges leaving that handle. */
export const conditional: Impl<'conditional'> = {
  run: ({ fields }) => ({ branch: chooseBranch(fields.branches) }),
};
