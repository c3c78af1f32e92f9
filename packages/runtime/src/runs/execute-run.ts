import { runs, type Db } from '@atelier/db';
import { runFlow, type RunLimits } from '@atelier/engine';
import type { FlowConfig, FlowRunEvent, FlowStreamEvent, NodeExecution } from '@atelier/schemas';
import { eq } from 'drizzle-orm';
import type { EventLog } from '../events/event-log';
import type { ModelAccess } from '@atelier/metering';
import type { UrlPolicy } from '@atelier/net';
import type { CancelBus } from './cancel-bus';
import { createEngineServices } from './engine-services';
import { createRunLifecycle, RUN_CANCELLED, type RunLifecycle } from './lifecycle';
import { toStreamEvent } from './stream-events';

/** How often a runner touches its run; a running run silent for STALE_RUN_MS is dead (see reaper). */
export const RUN_HEARTBEAT_MS = 10_000;
export const RUNNER_STOPPED =
  'The worker running this flow stopped before it ended (it was restarted or killed). Run it again.';

export interface RunExecutorDeps {
  db: Db;
  events: EventLog;
  cancels: CancelBus;
  models: ModelAccess;
  httpPolicy: UrlPolicy;
  limits?: Partial<RunLimits>;
  onError?(error: unknown, runId: string): void;
  /** The run lifecycle shared with the reaper and cancel (one group commit); made here when absent. */
  lifecycle?: RunLifecycle;
}

/**
 * Runs one queued run to its end: claims it, executes the graph with the engine, relays every event to
 * the run's event log, records each node execution, and writes the outcome. The run row is final
 * before the terminal event is logged, so a client that sees the end can read the whole result.
 */
export function createRunExecutor(deps: RunExecutorDeps) {
  const { db } = deps;

  const lifecycle = deps.lifecycle ?? createRunLifecycle(deps);

  return async function executeRun(runId: string): Promise<void> {
    // Claim: only a queued run, or a running one whose runner died (a second take).
    const claimed = await lifecycle.claim(runId);
    if (!claimed) return; // cancelled before it started, or already finished
    const { chatbotName, storeContent, ...run } = claimed;
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
    const beat = setInterval(() => {
      db.update(runs)
        .set({ heartbeatAt: new Date() })
        .where(eq(runs.id, runId))
        .returning({ cancel: runs.cancelRequestedAt })
        .then(([row]) => row?.cancel && controller.abort())
        .catch(() => undefined);
    }, RUN_HEARTBEAT_MS);
    beat.unref();

    // Events leave in order, a tick's worth at a time (one round trip to Redis for a burst of events).
    let queue: FlowStreamEvent[] = [];
    let sending: Promise<void> = Promise.resolve();
    const flushEvents = () => {
      const batch = queue;
      queue = [];
      sending = sending
        .then(() => deps.events.appendMany(runId, batch))
        .then(
          () => undefined,
          (error: unknown) => deps.onError?.(error, runId),
        );
    };
    const emit = (event: FlowStreamEvent) => {
      if (queue.length === 0) queueMicrotask(flushEvents);
      queue.push(event);
    };
    // Each node execution is written as it ends; the run's end waits for them (see lifecycle.ts).
    const nodeWrites: Promise<void>[] = [];
    emit({ type: 'run_started', run_id: runId, conversation_id: run.conversationId });

    try {
      const services = createEngineServices({
        db,
        models: deps.models,
        httpPolicy: deps.httpPolicy,
        scope: {
          organizationId: run.organizationId,
          workspaceId: run.workspaceId,
          userId: run.startedBy,
          chatbotId: run.chatbotId,
          chatbotName: chatbotName ?? 'a deleted chatbot',
          conversationId: run.conversationId,
          storeContent: storeContent ?? true,
        },
      });
      const result = await runFlow({
        // Parsed and validated when the run was created (the API refuses a flow with problems).
        config: run.configuration as FlowConfig,
        validate: false,
        inputs: run.inputs,
        services,
        signal: controller.signal,
        ...(deps.limits ? { limits: deps.limits } : {}),
        onEvent: (event: FlowRunEvent) => {
          if (event.type === 'node_completed' || event.type === 'node_error')
            nodeWrites.push(lifecycle.recordNode(runId, event.execution));
          if (event.type === 'node_skipped') nodeWrites.push(lifecycle.recordNode(runId, skipped(event)));
          const wire = toStreamEvent(event);
          if (wire) emit(wire);
        },
      });
      if (queue.length > 0) flushEvents();
      await Promise.all([sending, ...nodeWrites]);
      await lifecycle.finish(runId, {
        status: result.status,
        outputs: result.outputs,
        text: result.text,
        ...(result.error ? { error: result.error } : {}),
      });
    } catch (error) {
      if (queue.length > 0) flushEvents();
      await Promise.all([sending, ...nodeWrites]);
      deps.onError?.(error, runId);
      await lifecycle.finish(runId, {
        status: 'failed',
        error: `The run failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    } finally {
      clearInterval(beat);
      unwatch();
    }
  };
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
