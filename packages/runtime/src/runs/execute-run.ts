import { runs, type Db } from '@atelier/db';
import { runFlow, type RunLimits } from '@atelier/engine';
import type { FlowConfig, FlowRunEvent, FlowStreamEvent, NodeExecution } from '@atelier/schemas';
import { eq } from 'drizzle-orm';
import { recordMessage } from '../conversations/record-message';
import type { EventLog } from '../events/event-log';
import type { ModelAccess } from '../models/model-access';
import type { UrlPolicy } from '@atelier/net';
import type { CancelBus } from './cancel-bus';
import { createEngineServices } from './engine-services';
import { createRunWrites, type RunOutcome } from './run-writes';
import { toStreamEvent } from './stream-events';

/** How often a runner touches its run; a running run silent for STALE_RUN_MS is dead (see reaper). */
export const RUN_HEARTBEAT_MS = 10_000;
export const RUNNER_STOPPED =
  'The worker running this flow stopped before it ended (it was restarted or killed). Run it again.';

export const UNSTORABLE_RESULT = 'The run ended, but its result could not be stored';

type RunRow = typeof runs.$inferSelect;

export interface RunExecutorDeps {
  db: Db;
  events: EventLog;
  cancels: CancelBus;
  models: ModelAccess;
  httpPolicy: UrlPolicy;
  limits?: Partial<RunLimits>;
  onError?(error: unknown, runId: string): void;
}

/**
 * Runs one queued run to its end: claims it, executes the graph with the engine, relays every event to
 * the run's event log, records each node execution, and writes the outcome. The run row is final
 * before the terminal event is logged, so a client that sees the end can read the whole result.
 */
export function createRunExecutor(deps: RunExecutorDeps) {
  const { db } = deps;

  const writes = createRunWrites(db);

  /**
   * Writes the outcome (with the node executions, in the same statement), then logs the end. A run
   * always ends: when its result cannot be written (outputs nested too deep to serialize, or refused
   * by the database), it is ended as failed with the reason, without its node executions.
   */
  async function finish(run: RunRow, outcome: RunOutcome, executions: NodeExecution[] = []) {
    try {
      await writes.finish({ runId: run.id, outcome, executions });
    } catch (error) {
      deps.onError?.(error, run.id);
      outcome = {
        status: 'failed',
        error: `${UNSTORABLE_RESULT} (${error instanceof Error ? error.message : String(error)})`,
      };
      await writes.finish({ runId: run.id, outcome, executions: [] });
    }
    if (run.conversationId) {
      const failed = outcome.status !== 'succeeded';
      const text = failed
        ? `Error: ${outcome.error ?? 'Workflow/Chatflow execution error.'}`
        : (outcome.text ?? '');
      await recordMessage(db, run.conversationId, 'assistant', [{ type: 'text', text }], failed).catch(
        (error: unknown) => deps.onError?.(error, run.id),
      );
    }
    const last: FlowStreamEvent =
      outcome.status === 'succeeded'
        ? {
            type: 'execution_completed',
            run_id: run.id,
            outputs: outcome.outputs ?? {},
            final_output: outcome.text ?? '',
          }
        : {
            type: 'execution_error',
            run_id: run.id,
            error: outcome.error ?? 'Workflow/Chatflow execution error.',
            status: outcome.status,
          };
    await deps.events.append(run.id, last);
  }

  return async function executeRun(runId: string): Promise<void> {
    // Claim: only a queued run, or a running one whose runner died (a second take).
    const claimed = await writes.claim(runId);
    if (!claimed) return; // cancelled before it started, or already finished
    const { chatbotName, storeContent, ...run } = claimed;
    if (run.cancelRequestedAt) {
      await finish(run, { status: 'cancelled', error: 'The run was cancelled.' });
      return;
    }
    if (run.attempts > 1) {
      // Side effects (API calls, messages) may have happened: we do not replay a flow blindly.
      await finish(run, { status: 'failed', error: RUNNER_STOPPED });
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
    const executions: NodeExecution[] = [];
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
            executions.push(event.execution);
          if (event.type === 'node_skipped') executions.push(skipped(event));
          const wire = toStreamEvent(event);
          if (wire) emit(wire);
        },
      });
      if (queue.length > 0) flushEvents();
      await sending;
      await finish(
        run,
        {
          status: result.status,
          outputs: result.outputs,
          text: result.text,
          ...(result.error ? { error: result.error } : {}),
        },
        executions,
      );
    } catch (error) {
      if (queue.length > 0) flushEvents();
      await sending;
      deps.onError?.(error, runId);
      await finish(
        run,
        {
          status: 'failed',
          error: `The run failed: ${error instanceof Error ? error.message : String(error)}`,
        },
        executions,
      );
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
