import { chatbots, nodeExecutions, runs, type Db } from '@atelier/db';
import { runFlow, type RunLimits } from '@atelier/engine';
import { flowConfig, type FlowRunEvent, type FlowStreamEvent, type NodeExecution } from '@atelier/schemas';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { recordMessage } from '../conversations/record-message';
import type { EventLog } from '../events/event-log';
import type { ModelAccess } from '../models/model-access';
import type { UrlPolicy } from '../security/url-guard';
import type { CancelBus } from './cancel-bus';
import { createEngineServices } from './engine-services';
import { toStreamEvent } from './stream-events';

/** How often a runner touches its run; a running run silent for STALE_RUN_MS is dead (see reaper). */
export const RUN_HEARTBEAT_MS = 10_000;
export const RUNNER_STOPPED =
  'The worker running this flow stopped before it ended (it was restarted or killed). Run it again.';

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

  async function finish(
    run: RunRow,
    outcome: {
      status: 'succeeded' | 'failed' | 'cancelled';
      outputs?: Record<string, unknown>;
      text?: string;
      error?: string;
    },
  ) {
    await db
      .update(runs)
      .set({
        status: outcome.status,
        outputs: outcome.outputs ?? null,
        finalOutput: outcome.status === 'succeeded' ? (outcome.text ?? '') : null,
        error: outcome.error ?? null,
        finishedAt: new Date(),
      })
      .where(eq(runs.id, run.id));
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
    const [run] = await db
      .update(runs)
      .set({
        status: 'running',
        attempts: sql`${runs.attempts} + 1`,
        startedAt: sql`coalesce(${runs.startedAt}, now())`,
        heartbeatAt: new Date(),
      })
      .where(and(eq(runs.id, runId), inArray(runs.status, ['queued', 'running'])))
      .returning();
    if (!run) return; // cancelled before it started, or already finished
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
      const [bot] = run.chatbotId
        ? await db
            .select({ name: chatbots.name, storeConversations: chatbots.storeConversations })
            .from(chatbots)
            .where(eq(chatbots.id, run.chatbotId))
        : [];
      const services = createEngineServices({
        db,
        models: deps.models,
        httpPolicy: deps.httpPolicy,
        scope: {
          organizationId: run.organizationId,
          workspaceId: run.workspaceId,
          userId: run.startedBy,
          chatbotId: run.chatbotId,
          chatbotName: bot?.name ?? 'a deleted chatbot',
          conversationId: run.conversationId,
          storeContent: bot?.storeConversations ?? true,
        },
      });
      const result = await runFlow({
        config: flowConfig.parse(run.configuration),
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
      await saveExecutions(db, runId, executions);
      await finish(run, {
        status: result.status,
        outputs: result.outputs,
        text: result.text,
        ...(result.error ? { error: result.error } : {}),
      });
    } catch (error) {
      if (queue.length > 0) flushEvents();
      await sending;
      await saveExecutions(db, runId, executions).catch(() => undefined);
      deps.onError?.(error, runId);
      await finish(run, {
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

async function saveExecutions(db: Db, runId: string, executions: NodeExecution[]) {
  for (let i = 0; i < executions.length; i += 500) {
    await db.insert(nodeExecutions).values(
      executions.slice(i, i + 500).map((e) => ({
        runId,
        nodeId: e.nodeId,
        nodeType: e.type,
        iterationIndex: e.iterationIndex ?? null,
        status: e.status === 'running' ? ('failed' as const) : e.status,
        error: e.error ?? null,
        durationSeconds: e.durationSeconds,
        parameters: e.parameters ?? {},
        outputs: e.outputs ?? {},
        startedAt: new Date(e.startedAt),
      })),
    );
  }
}
