import type { FlowGraph } from './graph';

/**
 * Which nodes of one scope come before which, as one bitset per node (a 1,000-node flow takes 125 kB and
 * a few thousand word operations). Nodes on a cycle are left out of `order` and get incomplete sets.
 */
export class ScopeAncestry {
  readonly order: string[] = [];
  readonly cyclic: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly bits: Uint32Array[] = [];

  constructor(graph: FlowGraph, ids: readonly string[]) {
    const words = Math.ceil(ids.length / 32) || 1;
    ids.forEach((id, i) => {
      this.index.set(id, i);
      this.bits.push(new Uint32Array(words));
    });
    const indegree = ids.map((id) => graph.incoming.get(id)?.length ?? 0);
    const queue = ids.filter((_, i) => indegree[i] === 0);
    for (let q = 0; q < queue.length; q++) {
      const id = queue[q]!;
      this.order.push(id);
      const i = this.index.get(id)!;
      const mine = this.bits[i]!;
      for (const e of graph.outgoing.get(id) ?? []) {
        const t = this.index.get(e.target);
        if (t === undefined) continue;
        const theirs = this.bits[t]!;
        for (let w = 0; w < words; w++) theirs[w]! |= mine[w]!;
        theirs[i >>> 5]! |= 1 << (i & 31);
        if (--indegree[t]! === 0) queue.push(e.target);
      }
    }
    if (this.order.length < ids.length) {
      const ordered = new Set(this.order);
      for (const id of ids) if (!ordered.has(id)) this.cyclic.push(id);
    }
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  /** Whether `ancestor` comes before `id` through edges of this scope. */
  isAncestor(ancestor: string, id: string): boolean {
    const a = this.index.get(ancestor);
    const i = this.index.get(id);
    if (a === undefined || i === undefined) return false;
    return (this.bits[i]![a >>> 5]! & (1 << (a & 31))) !== 0;
  }
}

/** Ancestry of every scope of a flow, computed on first use. */
export class FlowAncestry {
  private readonly scopes = new Map<string | null, ScopeAncestry>();
  /** `runnable`: the top-level nodes a run reaches; the others never run, so nothing can read them. */
  constructor(
    private readonly graph: FlowGraph,
    private readonly runnable: ReadonlySet<string> | null = null,
  ) {}

  of(scope: string | null): ScopeAncestry {
    let found = this.scopes.get(scope);
    if (!found) {
      found = new ScopeAncestry(this.graph, this.graph.scopes.get(scope) ?? []);
      this.scopes.set(scope, found);
    }
    return found;
  }

  /**
   * Whether a node may read `output` of `target`: the target runs before it in its scope, or before one
   * of the iterations around it; inside an iteration, the iteration's own item and index are readable.
   */
  canRead(from: string, target: string, output: string): boolean {
    let current = from;
    for (;;) {
      const scope = this.graph.scopeOf.get(current) ?? null;
      if (this.graph.scopeOf.get(target) === scope && this.of(scope).isAncestor(target, current)) {
        return scope !== null || this.runnable === null || this.runnable.has(target);
      }
      if (scope === null) return false;
      if (target === scope) return this.graph.defs.get(scope)?.childOutputs.includes(output) === true;
      current = scope;
    }
  }
}
