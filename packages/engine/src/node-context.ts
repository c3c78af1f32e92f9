import type { FlowNode } from '@atelier/schemas';
import { prepareFields } from './prepare-fields';
import type { PlannedNode } from './plan';
import type { ScopeRun } from './scope-run';
import type { EngineServices } from './services';
import type { AgentTool, ChildRunResult, NodeContext } from './types';

/** A class rather than a literal with closures: one small allocation per execution. */
export class NodeContextImpl<F> implements NodeContext<F> {
  constructor(
    private readonly scope: ScopeRun,
    private readonly planned: PlannedNode,
    readonly fields: F,
    readonly signal: AbortSignal,
  ) {}

  get node(): FlowNode {
    return this.planned.node;
  }

  get nodeId(): string {
    return this.planned.id;
  }

  get services(): EngineServices {
    return this.scope.run.services;
  }

  get inputs(): Readonly<Record<string, unknown>> {
    return this.scope.run.inputs;
  }

  emitText(text: string): void {
    if (text === '') return;
    this.scope.run.emit({ type: 'text_chunk', nodeId: this.planned.id, text, ...this.scope.place });
  }

  tools(): AgentTool[] {
    return this.planned.tools.flatMap((tool) => {
      if (!tool.impl.tools) return [];
      const { parsed } = prepareFields(tool, this.scope);
      return tool.impl.tools({ node: tool.node, nodeId: tool.id, fields: parsed, services: this.services });
    });
  }

  async runChildren(item: unknown, index: number, signal?: AbortSignal): Promise<ChildRunResult> {
    const plan = this.planned.children;
    if (!plan) throw new Error(`${this.planned.node.type} nodes hold no children.`);
    // Its own switch, so that a failing child stops its siblings of the same item only.
    const controller = new AbortController();
    const child = this.scope.child(
      plan,
      AbortSignal.any([signal ?? this.signal, controller.signal]),
      { iterationId: this.planned.id, iterationIndex: index },
      { item, index },
      controller,
    );
    await child.start();
    return { outputs: child.outputs, leaves: plan.leaves };
  }
}
