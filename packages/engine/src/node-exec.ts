import { type NodeExecution, nodeName } from '@atelier/schemas';
import { NodeFailure, NodeTimeoutError, RunError, errorMessage, isRetryable } from './errors';
import { NodeContextImpl } from './node-context';
import { checkPayload } from './payload';
import type { PlannedNode } from './plan';
import { prepareFields } from './prepare-fields';
import type { ScopeRun } from './scope-run';
import type { NodeOutputs } from './types';

export type Settled =
  | { status: 'succeeded'; outputs: NodeOutputs }
  | { status: 'failed'; outputs: NodeOutputs }
  | { status: 'skipped' };

/** One try, under the node's timeout when it has one (and only then is a timer set). */
async function attempt(scope: ScopeRun, p: PlannedNode, fields: unknown): Promise<NodeOutputs> {
  if (p.timeoutMs === undefined) {
    return await p.impl.run(new NodeContextImpl(scope, p, fields, scope.signal));
  }
  const timeoutMs = p.timeoutMs;
  const controller = new AbortController();
  const signal = AbortSignal.any([scope.signal, controller.signal]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new NodeTimeoutError(p.id, timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([p.impl.run(new NodeContextImpl(scope, p, fields, signal)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs one node: records it, resolves its fields, tries (and retries with exponential backoff), checks
 * the size of what it gives. A failure either continues (the node's output is `{ error }`) or rejects
 * with a NodeFailure that stops the scope.
 */
export function executeNode(scope: ScopeRun, p: PlannedNode): Promise<Settled> {
  const services = scope.run.services;
  return services.aroundNode
    ? services.aroundNode({ id: p.id, type: p.node.type }, () => runNode(scope, p))
    : runNode(scope, p);
}

async function runNode(scope: ScopeRun, p: PlannedNode): Promise<Settled> {
  const run = scope.run;
  run.countStep(p.id);
  const started = performance.now();
  const record: NodeExecution = {
    nodeId: p.id,
    type: p.node.type,
    status: 'running',
    startedAt: new Date().toISOString(),
    durationSeconds: 0,
    parameters: null,
    outputs: null,
    ...scope.place,
  };
  run.records.push(record);
  run.emit({
    type: 'node_started',
    nodeId: p.id,
    nodeType: p.node.type,
    label: p.node.data.label,
    startedAt: record.startedAt,
    ...scope.place,
  });

  let attempts = 0;
  try {
    const fields = prepareFields(p, scope);
    record.parameters = fields.parsed;
    let outputs: NodeOutputs;
    for (;;) {
      attempts++;
      try {
        outputs = await attempt(scope, p, fields.parsed);
        break;
      } catch (error) {
        const retries = p.retry?.max ?? 0;
        if (run.done || scope.signal.aborted || attempts > retries || !isRetryable(error)) throw error;
        await run.sleep((p.retry?.backoffMs ?? 1000) * 2 ** (attempts - 1), scope.signal);
      }
    }
    checkPayload(p.id, outputs, run.limits.maxPayloadBytes);
    if (run.done) throw new RunError('cancelled', 'The run ended.');
    record.status = 'succeeded';
    record.outputs = outputs;
    record.durationSeconds = (performance.now() - started) / 1000;
    if (attempts > 1) record.attempts = attempts;
    run.emit({
      type: 'node_completed',
      nodeId: p.id,
      nodeType: p.node.type,
      execution: record,
      ...scope.place,
    });
    return { status: 'succeeded', outputs };
  } catch (error) {
    if (run.done || error instanceof RunError) throw error;
    // Stopped because a sibling failed (inside an iteration item): say so rather than echo its error.
    const message = scope.signal.aborted
      ? `Stopped: ${errorMessage(scope.signal.reason)}`
      : errorMessage(error);
    record.status = 'failed';
    record.error = message;
    record.durationSeconds = (performance.now() - started) / 1000;
    if (attempts > 1) record.attempts = attempts;
    const base = { type: 'node_error', nodeId: p.id, nodeType: p.node.type, error: message } as const;
    if (p.continueOnError && !scope.signal.aborted) {
      const outputs = { error: message };
      record.outputs = outputs;
      run.emit({ ...base, continued: true, execution: record, ...scope.place });
      return { status: 'failed', outputs };
    }
    run.emit({ ...base, continued: false, execution: record, ...scope.place });
    throw new NodeFailure(p.id, nodeName(p.node), message);
  }
}
