import type { Db, runs } from '@atelier/db';
import type { FlowStreamEvent, NodeExecution, RunStatus } from '@atelier/schemas';
import type { Logger } from '@atelier/telemetry';
import type { EventLog } from '../events/event-log';
import { recordNodeEnd, recordRunEnd } from './run-telemetry';
import { createRunWrites, serializeNode, type NodeItem, type RunOutcome } from './run-writes';

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

/**
 * A run's node executions wait this long for its end, which writes them in its own statement (a chat's
 * flow ends well within it: no statement of their own); a run still going then has them written, so a
 * run killed midway shows what it did but for its last half second.
 */
export const NODE_WRITE_DELAY_MS = 500;

/** A run's node executions not written yet, and when they stop waiting for its end. */
interface PendingNodes {
  rows: NodeItem[];
  timer: NodeJS.Timeout;
}

/**
 * Every status change of a run after it was queued goes through here: `claim` (to running),
 * `recordNode` (each node execution as it ends: written with the run's end, or after
 * NODE_WRITE_DELAY_MS, so a run killed midway shows what it did) and `finish` (to an end). The writes
 * are guarded by the state table: an illegal move changes nothing.
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

  const pending = new Map<string, PendingNodes>();
  /** Runs whose node executions are being written on their own (their end waits for them). */
  const writing = new Map<string, Promise<void>>();

  /** A node execution without its values, saying why they were not kept. */
  const stripped = (item: NodeItem, error: unknown): NodeItem => {
    const reason = `${UNSTORABLE_RESULT} (${error instanceof Error ? error.message : String(error)})`;
    return { ...item, execution: { ...item.execution, parameters: {}, outputs: { _unstorable: reason } } };
  };

  /** The row of a node execution; one whose values cannot be serialized is kept without them. */
  const rowOf = (item: NodeItem): string => {
    try {
      return serializeNode(item);
    } catch (error) {
      report(item.runId)(error);
      return serializeNode(stripped(item, error));
    }
  };

  /** Writes one node execution on its own; a node whose values cannot be stored is kept without them. */
  async function writeNode(item: NodeItem): Promise<void> {
    try {
      await writes.node(rowOf(item));
    } catch (error) {
      report(item.runId)(error);
      await writes.node(serializeNode(stripped(item, error))).catch(report(item.runId));
    }
  }

  /** Writes the run's waiting node executions now (its end has not come within the delay). */
  function writeWaiting(runId: string): void {
    const entry = pending.get(runId);
    if (!entry) return;
    pending.delete(runId);
    const done = (writing.get(runId) ?? Promise.resolve())
      .then(() => Promise.all(entry.rows.map(writeNode)))
      .then(() => undefined);
    writing.set(runId, done);
    void done.finally(() => {
      if (writing.get(runId) === done) writing.delete(runId);
    });
  }

  /**
   * Records one node execution: it waits for the run's end, which writes it (see NODE_WRITE_DELAY_MS).
   * Never rejects.
   */
  async function recordNode(runId: string, execution: NodeExecution): Promise<void> {
    recordNodeEnd(execution);
    let entry = pending.get(runId);
    if (!entry) {
      entry = { rows: [], timer: setTimeout(() => writeWaiting(runId), NODE_WRITE_DELAY_MS).unref() };
      pending.set(runId, entry);
    }
    entry.rows.push({ runId, execution });
  }

  /** Takes the run's waiting node executions, once those being written on their own are in. */
  async function takeNodes(runId: string): Promise<NodeItem[]> {
    const entry = pending.get(runId);
    pending.delete(runId);
    if (entry) clearTimeout(entry.timer);
    await writing.get(runId);
    return entry?.rows ?? [];
  }

  /**
   * Ends a run, whatever ended it (its flow, an error, cancel, timeout, the reaper): writes the run row
   * and, in the same statement and only when this call moved it (the state table allows it from the
   * status it had, and `from` when given), the conversation's assistant message (the answer, or the
   * error); then the terminal event. Answers whether it ended the run. The row is final before the event is logged, so a client
   * that sees the end reads the whole result. A result that cannot be stored ends the run as failed.
   */
  async function finish(runId: string, outcome: RunOutcome, from?: readonly RunStatus[]): Promise<boolean> {
    const allowed = sourcesOf(outcome.status).filter((s) => !from || from.includes(s));
    const answer = (o: RunOutcome) => {
      const failed = o.status !== 'succeeded';
      return { text: failed ? `Error: ${o.error ?? GENERIC_ERROR}` : (o.text ?? ''), failed };
    };
    const nodes = await takeNodes(runId);
    const end = (o: RunOutcome, rows: readonly string[]) =>
      writes.finish({ runId, outcome: o, from: allowed, answer: answer(o), nodes: rows });
    let ended;
    try {
      ended = await end(outcome, nodes.map(rowOf));
    } catch (error) {
      // Ended as failed with the reason, its nodes kept without their values.
      report(runId)(error);
      outcome = {
        status: 'failed',
        error: `${UNSTORABLE_RESULT} (${error instanceof Error ? error.message : String(error)})`,
      };
      ended = await end(
        outcome,
        nodes.map((item) => serializeNode(stripped(item, error))),
      );
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
