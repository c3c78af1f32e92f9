import type { Db, runs } from '@atelier/db';
import type { FlowStreamEvent, NodeExecution, RunStatus } from '@atelier/schemas';
import type { Logger } from '@atelier/telemetry';
import type { EventLog } from '../events/event-log';
import { recordNodeEnd, recordRunEnd } from './run-telemetry';
import { createRunWrites, serializeNode, type RunOutcome } from './run-writes';

export type { RunOutcome } from './run-writes';

/**
 * The run state table: from each status, the statuses a run may move to. A run is born `queued`
 * (nothing moves back to it) and the three ends are final.
 *
 * | from      | to        | by                                                                    |
 * |-----------|-----------|-----------------------------------------------------------------------|
 * | queued    | running   | a runner claims it                                                    |
 * | queued    | cancelled | cancel before a runner took it                                        |
 * | queued    | failed    | the reaper (lost in an in-memory queue, or an orphan at start)        |
 * | running   | running   | a second take after its runner died (then ended as failed at once)    |
 * | running   | succeeded | the flow ended                                                        |
 * | running   | failed    | the flow failed, timed out, could not be stored; or the reaper        |
 * | running   | cancelled | cancel heard by its runner                                            |
 */
export const RUN_TRANSITIONS: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  queued: ['running', 'cancelled', 'failed'],
  running: ['running', 'succeeded', 'failed', 'cancelled'],
  succeeded: [],
  failed: [],
  cancelled: [],
};

export type EndStatus = RunOutcome['status'];

export function canTransition(from: RunStatus, to: RunStatus): boolean {
  return RUN_TRANSITIONS[from].includes(to);
}

/** The statuses from which a run may move to `to` (what the guarded writes accept). */
export function sourcesOf(to: RunStatus): RunStatus[] {
  return (Object.keys(RUN_TRANSITIONS) as RunStatus[]).filter((from) => canTransition(from, to));
}

export const RUN_CANCELLED = 'The run was cancelled.';
const GENERIC_ERROR = 'Workflow/Chatflow execution error.';

/** The one place a run's last event is built: from its outcome (the runner, reaper, cancel) or its row. */
export function terminalEvent(runId: string, outcome: RunOutcome): FlowStreamEvent {
  return outcome.status === 'succeeded'
    ? {
        type: 'execution_completed',
        run_id: runId,
        outputs: outcome.outputs ?? {},
        final_output: outcome.text ?? '',
      }
    : {
        type: 'execution_error',
        run_id: runId,
        error: outcome.error ?? GENERIC_ERROR,
        status: outcome.status,
      };
}

/** A finished run's last event, rebuilt from its row (re-attach after the log forgot it); null while it runs. */
export function terminalEventOf(row: typeof runs.$inferSelect): FlowStreamEvent | null {
  if (row.status === 'queued' || row.status === 'running') return null;
  return terminalEvent(row.id, {
    status: row.status,
    ...(row.outputs ? { outputs: row.outputs } : {}),
    ...(row.finalOutput !== null ? { text: row.finalOutput } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
  });
}

/** How long ending a run waits for its terminal event to be logged (see finish). */
const EVENT_WAIT_MS = 2_000;

export const UNSTORABLE_RESULT = 'The run ended, but its result could not be stored';
/** Why the last nodes of a run whose end had to be written again carry no values. */
const UNSTORABLE_END = new Error('written with a run end that could not be stored');

/**
 * Every status change of a run after it was queued goes through here: `claim` (to running),
 * `recordNode` (each node execution as it ends, so a run killed midway shows what it did) and
 * `finish` (to an end, with the node executions of its last turn). The writes are guarded by the state table: an illegal move changes nothing.
 */
export function createRunLifecycle(deps: {
  db: Db;
  events: EventLog;
  onError?(error: unknown, runId: string): void;
  /** RUN_LOCK_MS: a running run is taken a second time only after its lock lapsed. */
  lockMs?: number;
  /** Each run's end is logged here (outcome, duration). */
  log?: Logger | undefined;
}) {
  const { db, events } = deps;
  const writes = createRunWrites(db, sourcesOf('running'), deps.lockMs);
  const report = (runId: string) => (error: unknown) => deps.onError?.(error, runId);

  /**
   * Writes one node execution (grouped with the other runs' in one statement). Never rejects: a node
   * whose values cannot be stored is kept without them, with the reason.
   */
  async function recordNode(runId: string, execution: NodeExecution): Promise<void> {
    recordNodeEnd(execution);
    try {
      await writes.node({ runId, execution });
    } catch (error) {
      report(runId)(error);
      await writes.node({ runId, execution: unstorable(execution, error) }).catch(report(runId));
    }
  }

  /** A node execution kept without its values, with the reason they could not be stored. */
  const unstorable = (execution: NodeExecution, error: unknown): NodeExecution => ({
    ...execution,
    parameters: {},
    outputs: {
      _unstorable: `${UNSTORABLE_RESULT} (${error instanceof Error ? error.message : String(error)})`,
    },
  });

  /** The rows of node executions written with a run's end (see finish); values that cannot be stored are dropped, with the reason. */
  function lastNodes(runId: string, executions: readonly NodeExecution[]): string[] {
    return executions.map((execution) => {
      try {
        return serializeNode({ runId, execution });
      } catch (error) {
        report(runId)(error);
        return serializeNode({ runId, execution: unstorable(execution, error) });
      }
    });
  }

  /**
   * Ends a run, whatever ended it (its flow, an error, cancel, timeout, the reaper): writes the run row
   * and, in the same statement and only when this call moved it (the state table allows it from the
   * status it had, and `from` when given), the conversation's assistant message (the answer, or the
   * error); then the terminal event. Answers whether it ended the run. The row is final before the event is logged, so a client
   * that sees the end reads the whole result. A result that cannot be stored ends the run as failed.
   */
  async function finish(
    runId: string,
    outcome: RunOutcome,
    from?: readonly RunStatus[],
    /** Node executions that ended in the run's last turn, written by the same statement (one round trip less). */
    nodes: readonly NodeExecution[] = [],
  ): Promise<boolean> {
    nodes.forEach(recordNodeEnd);
    const allowed = sourcesOf(outcome.status).filter((s) => !from || from.includes(s));
    const answer = (o: RunOutcome) => {
      const failed = o.status !== 'succeeded';
      return {
        text: failed ? `Error: ${o.error ?? GENERIC_ERROR}` : (o.text ?? ''),
        failed,
        ...(o.sources && !failed ? { sources: o.sources } : {}),
      };
    };
    let ended;
    try {
      ended = await writes.finish({
        runId,
        outcome,
        from: allowed,
        answer: answer(outcome),
        nodes: lastNodes(runId, nodes),
      });
    } catch (error) {
      report(runId)(error);
      outcome = {
        status: 'failed',
        error: `${UNSTORABLE_RESULT} (${error instanceof Error ? error.message : String(error)})`,
      };
      ended = await writes.finish({
        runId,
        outcome,
        from: allowed,
        answer: answer(outcome),
        // The end could not be stored with them: their values go too, with the reason.
        nodes: nodes.map((execution) =>
          serializeNode({ runId, execution: unstorable(execution, UNSTORABLE_END) }),
        ),
      });
    }
    if (!ended) return false;
    recordRunEnd(runId, outcome, ended, deps.log);
    // The event log may be away (Redis down): its client keeps the event and sends it on its return;
    // the end of the run does not wait longer than this for it (the row is already final).
    const logged = events.append(runId, terminalEvent(runId, outcome)).catch(report(runId));
    await Promise.race([logged, new Promise((resolve) => setTimeout(resolve, EVENT_WAIT_MS).unref())]);
    return true;
  }

  return { claim: writes.claim, recordNode, finish };
}

export type RunLifecycle = ReturnType<typeof createRunLifecycle>;
