import { errorMessage, NodeInputError, RunError } from '../errors';
import { resolvePath } from '../references';
import type { ChildRunResult } from '../types';
import type { Impl } from './shared';

const DROPPED = Symbol('dropped');

function itemsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      const parsed = JSON.parse(value) as unknown;
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // Reported below.
    }
  }
  if (value === null || value === undefined || value === '') return [];
  throw new NodeInputError('The items to iterate over must be a list.');
}

/** What one item gives: the selected child output, else the outputs of the last child (or of each leaf). */
function itemResult(run: ChildRunResult, selector: string): unknown {
  if (selector.trim() !== '') return resolvePath(selector, (id) => run.outputs.get(id)) ?? null;
  const ran = run.leaves.filter((id) => run.outputs.has(id));
  if (ran.length === 0) return null;
  if (ran.length === 1) return run.outputs.get(ran[0]!) ?? null;
  return Object.fromEntries(ran.map((id) => [id, run.outputs.get(id)]));
}

/**
 * Runs the children once per item, one after the other or up to `concurrency` at once; results keep the
 * items' order. When an item fails: stop fails the iteration (and stops the items running), continue
 * keeps { error, index } in its place, drop leaves it out.
 */
export const iteration: Impl<'iteration'> = {
  async run(ctx) {
    const { fields } = ctx;
    const items = itemsOf(fields.items);
    const results: unknown[] = new Array<unknown>(items.length);
    const controller = new AbortController();
    const signal = AbortSignal.any([ctx.signal, controller.signal]);
    let next = 0;

    const worker = async () => {
      while (next < items.length && !signal.aborted) {
        const index = next++;
        try {
          results[index] = itemResult(
            await ctx.runChildren(items[index], index, signal),
            fields.output_selector,
          );
        } catch (error) {
          if (error instanceof RunError || ctx.signal.aborted) throw error;
          if (fields.error_mode === 'stop') {
            controller.abort(error);
            throw new Error(`Item ${index + 1} of ${items.length} failed: ${errorMessage(error)}`);
          }
          results[index] = fields.error_mode === 'continue' ? { error: errorMessage(error), index } : DROPPED;
        }
      }
    };

    const workers = fields.mode === 'parallel' ? Math.min(fields.concurrency, items.length) : 1;
    await Promise.all(Array.from({ length: workers }, worker));
    const kept = results.filter((r) => r !== DROPPED);
    return { results: kept, count: kept.length };
  },
};
