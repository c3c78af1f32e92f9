import type { NodeOutputs } from './types';
import { executeNode, type Settled } from './node-exec';
import type { PlannedNode, ScopePlan } from './plan';
import type { OutputLookup } from './references';
import type { RunState } from './run-state';

/** Where a scope runs: inside which iteration, for which item. */
export interface ScopePlace {
  iterationId: string;
  iterationIndex: number;
}

/**
 * Runs the nodes of one scope (the top level, or one item of an iteration): each node starts as soon as
 * every incoming edge is settled, so independent branches run together. A node runs when at least one
 * incoming edge is live; when all of them come from skipped nodes or untaken branches it is skipped too.
 */
export class ScopeRun {
  readonly outputs = new Map<string, NodeOutputs>();
  readonly lookup: OutputLookup;
  private readonly pending: Int32Array;
  private readonly live: Int32Array;
  private remaining: number;
  private ended = false;
  private resolveDone!: () => void;
  private rejectDone!: (error: unknown) => void;
  private readonly done: Promise<void>;

  constructor(
    readonly run: RunState,
    readonly plan: ScopePlan,
    readonly signal: AbortSignal,
    readonly place: ScopePlace | null,
    parent: OutputLookup | null,
    /** The container's own outputs while it runs its children (an iteration's item and index). */
    seed: NodeOutputs | null,
    /** Aborted when the scope fails, so the rest of it stops. */
    private readonly controller: AbortController | null = null,
  ) {
    const n = plan.nodes.length;
    this.pending = new Int32Array(n);
    this.live = new Int32Array(n);
    for (const p of plan.nodes) this.pending[p.slot] = p.indegree;
    this.remaining = n;
    const containerId = plan.containerId;
    this.lookup = (id) => this.outputs.get(id) ?? (seed && id === containerId ? seed : parent?.(id));
    this.done = new Promise((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
  }

  /**
   * A scope for one item of a container (an iteration) in this scope: built here, so that the node
   * context need not import this module (node-context -> scope-run -> node-exec -> node-context).
   */
  child(
    plan: ScopePlan,
    signal: AbortSignal,
    place: ScopePlace,
    seed: NodeOutputs,
    controller: AbortController,
  ): ScopeRun {
    return new ScopeRun(this.run, plan, signal, place, this.lookup, seed, controller);
  }

  /** Resolves when every node has run or been skipped; rejects with the first failure. */
  start(): Promise<void> {
    if (this.remaining === 0) this.resolveDone();
    for (const root of this.plan.roots) this.launch(root);
    return this.done;
  }

  private launch(p: PlannedNode): void {
    executeNode(this, p).then(
      (settled) => this.settle(p, settled),
      (error: unknown) => this.abort(error),
    );
  }

  private abort(error: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.controller?.abort(error);
    this.rejectDone(error);
  }

  private settle(first: PlannedNode, firstResult: Settled): void {
    if (this.ended || this.run.done) return;
    // A queue rather than recursion: skipping a long chain must not grow the stack.
    const queue: [PlannedNode, Settled][] = [[first, firstResult]];
    for (let q = 0; q < queue.length; q++) {
      const [p, result] = queue[q]!;
      if (result.status !== 'skipped') this.outputs.set(p.id, result.outputs);
      this.remaining--;
      const branch = p.def.branching && result.status === 'succeeded' ? result.outputs.branch : undefined;
      for (const e of p.out) {
        const t = e.target.slot;
        if (result.status !== 'skipped' && (!p.def.branching || (e.handle !== null && e.handle === branch))) {
          this.live[t]!++;
        }
        if (--this.pending[t]! === 0) {
          if (this.live[t]! > 0) this.launch(e.target);
          else queue.push([e.target, this.skip(e.target)]);
        }
      }
    }
    if (this.remaining === 0) {
      this.ended = true;
      this.resolveDone();
    }
  }

  private skip(p: PlannedNode): Settled {
    const startedAt = new Date().toISOString();
    this.run.records.push({
      nodeId: p.id,
      type: p.node.type,
      status: 'skipped',
      startedAt,
      durationSeconds: 0,
      parameters: null,
      outputs: null,
      ...this.place,
    });
    this.run.emit({ type: 'node_skipped', nodeId: p.id, nodeType: p.node.type, ...this.place });
    return { status: 'skipped' };
  }
}
