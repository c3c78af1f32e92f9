import type { Db } from '@atelier/db';
import { runFlow, type RunLimits } from '@atelier/engine';
import type { AnswerSource, FlowConfig, FlowRunEvent, NodeExecution } from '@atelier/schemas';
import type { EventLog } from '../events/event-log';
import type { ModelAccess } from '@atelier/metering';
import type { UrlPolicy } from '@atelier/net';
import type { CancelBus } from './cancel-bus';
import { mergeSources, sourcesOfDocuments, type Knowledge } from '@atelier/knowledge';
import {
  failSpan,
  metrics,
  runInJobContext,
  SpanKind,
  SpanStatusCode,
  withSpan,
  type JobContext,
  type Logger,
  type Span,
} from '@atelier/telemetry';
import { createEngineServices } from './engine-services';
import { createEventBatches } from './event-batches';
import { createFlowConfigs, type FlowConfigs } from './flow-configs';
import { createRunLifecycle, RUN_CANCELLED, type RunLifecycle } from './lifecycle';
import { createRunLocks, DEFAULT_RUN_LOCK_MS, type RunLocks } from './run-lock';
import { toStreamEvent } from './stream-events';

export const RUNNER_STOPPED =
  'The worker running this flow stopped before it ended (it was restarted or killed). Run it again.';

export interface RunExecutorDeps {
  db: Db;
  events: EventLog;
  cancels: CancelBus;
  models: ModelAccess;
  httpPolicy: UrlPolicy;
  /** Collections, vector stores and loaders for the knowledge nodes. */
  knowledge?: Knowledge | undefined;
  limits?: Partial<RunLimits>;
  onError?(error: unknown, runId: string): void;
  /** The run lifecycle shared with the reaper and cancel (one group commit); made here when absent. */
  lifecycle?: RunLifecycle;
  /** This process's run lock (heartbeats); made here, with the default lock, when absent. */
  locks?: RunLocks;
  /** Each run's start is logged here (its end by the lifecycle). */
  log?: Logger | undefined;
  /** The configurations runs run, stored once (see flow-configs.ts); made here when absent. */
  flowConfigs?: FlowConfigs;
}

/**
 * Runs one queued run to its end: claims it, executes the graph with the engine, relays every event to
 * the run's event log, records each node execution, and writes the outcome. The run row is final
 * before the terminal event is logged, so a client that sees the end can read the whole result.
 */
export function createRunExecutor(deps: RunExecutorDeps) {
  const { db } = deps;

  const lifecycle = deps.lifecycle ?? createRunLifecycle(deps);
  const flowConfigs = deps.flowConfigs ?? createFlowConfigs(db);
  const locks =
    deps.locks ?? createRunLocks(db, DEFAULT_RUN_LOCK_MS, (error) => deps.onError?.(error, 'heartbeat'));

  /**
   * Executes a run in the context it was queued in (its logs carry the request id, its span is a child
   * of the request's), as the `run` span its nodes and model calls nest under.
   */
  return function executeRun(runId: string, job?: JobContext): Promise<void> {
    return runInJobContext(job, runId, () =>
      withSpan('run', { kind: SpanKind.CONSUMER, attributes: { 'atelier.run_id': runId } }, (span) =>
        executeClaimed(runId, span),
      ),
    );
  };

  async function executeClaimed(runId: string, span: Span): Promise<void> {
    // Claim: only a queued run, or a running one whose runner died (a second take).
    const claimed = await lifecycle.claim(runId);
    if (!claimed) return; // cancelled before it started, or already finished
    const { chatbotName, storeContent, ...run } = claimed;
    span.setAttributes({
      'atelier.chatbot_type': run.chatbotType,
      'atelier.trigger': run.trigger,
      'atelier.attempt': run.attempts,
    });
    const queuedMs = run.startedAt ? run.startedAt.getTime() - run.createdAt.getTime() : null;
    if (run.attempts === 1 && queuedMs !== null) {
      metrics.runQueueWait.observe({ chatbot_type: run.chatbotType }, Math.max(0, queuedMs) / 1000);
    }
    deps.log?.info(
      { runId, chatbotType: run.chatbotType, trigger: run.trigger, attempt: run.attempts, queuedMs },
      'run started',
    );
    if (run.cancelRequestedAt) {
      await lifecycle.finish(runId, { status: 'cancelled', error: RUN_CANCELLED });
      return;
    }
    if (run.attempts > 1) {
      // Side effects (API calls, messages) may have happened: we do not replay a flow blindly.
      await lifecycle.finish(runId, { status: 'failed', error: RUNNER_STOPPED });
      return;
    }

    const controller = new AbortController();
    const unwatch = deps.cancels.watch(runId, () => controller.abort());
    // Held under the run lock until it ends; stopped when cancelled, or when a sweeper ended it.
    const release = locks.hold(runId, () => controller.abort());

    const events = createEventBatches((batch) =>
      deps.events.appendMany(runId, batch).catch((error: unknown) => deps.onError?.(error, runId)),
    );
    const { emit } = events;
    // Each node execution is written as it ends (after the turn it ended in, grouped with other runs'
    // writes); the run's end waits for them. Those of the run's last turn (an LLM node and the output
    // node that follows it, mostly) go with the end, in its statement (see lifecycle.ts).
    const nodeWrites: Promise<void>[] = [];
    let unwritten: NodeExecution[] = [];
    const writeNodes = () => {
      for (const execution of unwritten) nodeWrites.push(lifecycle.recordNode(runId, execution));
      unwritten = [];
    };
    const nodeEnded = (execution: NodeExecution) => {
      if (unwritten.length === 0) setImmediate(writeNodes);
      unwritten.push(execution);
    };
    /** The node executions not yet on their way: the end writes them. */
    const lastTurn = () => {
      const last = unwritten;
      unwritten = [];
      return last;
    };
    emit({ type: 'run_started', run_id: runId, conversation_id: run.conversationId });
    /** What the run's knowledge retrieve nodes found: the answer's sources. */
    let sources: AnswerSource[] = [];

    try {
      const services = createEngineServices({
        db,
        models: deps.models,
        httpPolicy: deps.httpPolicy,
        knowledge: deps.knowledge,
        scope: {
          organizationId: run.organizationId,
          workspaceId: run.workspaceId,
          userId: run.startedBy,
          chatbotId: run.chatbotId,
          chatbotName: chatbotName ?? 'a deleted chatbot',
          conversationId: run.conversationId,
          storeContent: storeContent ?? true,
          apiKeyName: run.apiKeyName,
        },
      });
      const result = await runFlow({
        // Parsed and validated when the run was created (the API refuses a flow with problems).
        config: (await flowConfigs.load(run.organizationId, run.configurationHash)) as FlowConfig,
        validate: false,
        inputs: run.inputs,
        services,
        signal: controller.signal,
        ...(deps.limits ? { limits: deps.limits } : {}),
        onEvent: (event: FlowRunEvent) => {
          if (event.type === 'node_completed' || event.type === 'node_error') nodeEnded(event.execution);
          if (event.type === 'node_skipped') nodeEnded(skipped(event));
          const wire = toStreamEvent(event);
          if (wire) emit(wire);
          if (event.type === 'node_completed' && event.nodeType === 'knowledge_retrieve') {
            const found = sourcesOfDocuments(event.execution.outputs?.documents);
            if (found.length === 0) return;
            sources = mergeSources(sources, found);
            emit({ type: 'sources', node_id: event.nodeId, sources });
          }
        },
      });
      const last = lastTurn();
      await Promise.all([events.end(), ...nodeWrites]);
      span.setAttribute('atelier.run_status', result.status);
      if (result.status === 'failed')
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? '' });
      await lifecycle.finish(
        runId,
        {
          status: result.status,
          outputs: result.outputs,
          text: result.text,
          ...(result.error ? { error: result.error } : {}),
          ...(sources.length > 0 ? { sources } : {}),
        },
        undefined,
        last,
      );
    } catch (error) {
      const last = lastTurn();
      await Promise.all([events.end(), ...nodeWrites]);
      deps.onError?.(error, runId);
      failSpan(span, error);
      await lifecycle.finish(
        runId,
        {
          status: 'failed',
          error: `The run failed: ${error instanceof Error ? error.message : String(error)}`,
        },
        undefined,
        last,
      );
    } finally {
      release();
      unwatch();
    }
  }
}

function skipped(event: Extract<FlowRunEvent, { type: 'node_skipped' }>): NodeExecution {
  return {
    nodeId: event.nodeId,
    type: event.nodeType,
    status: 'skipped',
    startedAt: new Date().toISOString(),
    durationSeconds: 0,
    parameters: {},
    outputs: null,
    ...(event.iterationId ? { iterationId: event.iterationId } : {}),
    ...(event.iterationIndex !== undefined ? { iterationIndex: event.iterationIndex } : {}),
  };
}
