import type { FlowConfig, FlowRunEvent, NodeExecution } from '@atelier/schemas';
import { NodeFailure, RunError, type RunErrorCode } from './errors';
import { finalOutputText } from './final-output';
import { buildGraph } from './graph';
import { NODE_REGISTRY } from './nodes';
import { planFlow, type ScopePlan } from './plan';
import { abortableSleep, asRunError, RunState, type Sleep } from './run-state';
import { ScopeRun } from './scope-run';
import type { EngineServices } from './services';
import { DEFAULT_LIMITS, type NodeOutputs, type NodeRegistry, type RunLimits } from './types';
import { type FlowProblem, validateGraph } from './validate';

export interface RunOptions {
  config: FlowConfig;
  /** The run's inputs: query, history and the input node's custom fields. */
  inputs?: Record<string, unknown>;
  services: EngineServices;
  registry?: NodeRegistry;
  signal?: AbortSignal;
  limits?: Partial<RunLimits>;
  /** Called synchronously for each event, in order. */
  onEvent?: (event: FlowRunEvent) => void;
  /** false skips validation, for a caller that has just validated the same configuration. */
  validate?: boolean;
  /** How to wait between retries (tests record the delays). */
  sleep?: Sleep;
}

export interface RunResult {
  status: 'succeeded' | 'failed' | 'cancelled';
  /** The outputs of the output nodes that ran, merged in canvas order. */
  outputs: NodeOutputs;
  /** The final output text (see finalOutputText); empty when the run did not succeed. */
  text: string;
  error?: string;
  errorCode?: RunErrorCode;
  /** The node whose failure ended the run. */
  failedNodeId?: string;
  /** Why the flow could not start (errorCode invalid_flow). */
  problems: FlowProblem[];
  executions: NodeExecution[];
  steps: number;
  durationSeconds: number;
}

const describeProblems = (problems: readonly FlowProblem[]): string => {
  const shown = problems.slice(0, 3).map((p) => (p.nodeId ? `${p.nodeId}: ${p.message}` : p.message));
  const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
  return `The flow cannot run: ${shown.join(' ')}${more}`;
};

function collectOutputs(plan: ScopePlan, top: ScopeRun): NodeOutputs {
  const merged: NodeOutputs = {};
  for (const p of plan.outputNodes) {
    const outputs = top.outputs.get(p.id);
    if (outputs && !('error' in outputs && p.continueOnError)) Object.assign(merged, outputs);
  }
  return merged;
}

/**
 * Runs a flow to its end. Never throws for what happens inside the flow: a failure, a crossed limit or
 * a cancellation gives a result with that status (and an execution_error event).
 */
export async function runFlow(options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const limits: RunLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const run = new RunState(
    options.services,
    options.inputs ?? {},
    limits,
    options.sleep ?? abortableSleep,
    options.onEvent,
  );
  let problems: FlowProblem[] = [];
  let outputs: NodeOutputs = {};
  let text = '';

  const graph = buildGraph(options.config);
  if (options.validate !== false) problems = validateGraph(graph, options.config);
  const external = options.signal;
  const onAbort = () => run.fail(new RunError('cancelled', 'The run was cancelled.'));
  const timer = setTimeout(
    () =>
      run.fail(
        new RunError('limit_exceeded', `The run took longer than its ${limits.maxRunTimeMs / 1000} s limit.`),
      ),
    limits.maxRunTimeMs,
  );

  if (problems.length > 0) {
    run.fail(new RunError('invalid_flow', describeProblems(problems)));
  } else if (external?.aborted) {
    onAbort();
  } else {
    external?.addEventListener('abort', onAbort, { once: true });
    try {
      const plan = planFlow(graph, options.registry ?? NODE_REGISTRY);
      const top = new ScopeRun(run, plan, run.controller.signal, null, null, null);
      top.start().then(
        () => {
          outputs = collectOutputs(plan, top);
          text = finalOutputText(outputs);
          run.complete(outputs, text);
        },
        (error: unknown) => {
          run.fail(
            error instanceof NodeFailure
              ? new RunError('node_failed', `${error.label} failed: ${error.message}`, error.nodeId)
              : asRunError(error),
          );
        },
      );
    } catch (error) {
      run.fail(asRunError(error, 'invalid_flow'));
    }
  }

  const end = await run.finished;
  clearTimeout(timer);
  external?.removeEventListener('abort', onAbort);
  const error = end.error;
  return {
    status: end.ok ? 'succeeded' : error?.code === 'cancelled' ? 'cancelled' : 'failed',
    outputs: end.ok ? outputs : {},
    text: end.ok ? text : '',
    ...(error ? { error: error.message, errorCode: error.code } : {}),
    ...(error?.nodeId ? { failedNodeId: error.nodeId } : {}),
    problems,
    executions: run.records,
    steps: run.steps,
    durationSeconds: (performance.now() - started) / 1000,
  };
}
