import { nodeName } from '@atelier/schemas';
import { errorMessage } from '../errors';
import { type Impl, knowledge } from './shared';
import { storeTarget } from './store-target';

/** With continue_on_failure, a failed deletion gives zero deleted records and its error. */
export const vectorStoreDelete: Impl<'vector_store_delete'> = {
  async run({ fields, services, signal, node }) {
    const deleteRecords = knowledge(services, 'deleteRecords', nodeName(node));
    const target = storeTarget(fields);
    try {
      const result = await deleteRecords({ condition: fields.deletion_condition_expr, target, signal });
      return { deleted: result.deleted };
    } catch (error) {
      if (!fields.continue_on_failure || signal.aborted) throw error;
      return { deleted: 0, error: errorMessage(error) };
    }
  },
};
