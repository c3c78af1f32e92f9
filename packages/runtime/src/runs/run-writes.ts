import { queryRows, type runs, type Db } from '@atelier/db';
import type { NodeExecution } from '@atelier/schemas';
import { sql } from 'drizzle-orm';
import { storableJsonText } from '../storable';

type RunRow = typeof runs.$inferSelect;
export type ClaimedRun = RunRow & { chatbotName: string | null; storeContent: boolean | null };

export interface RunOutcome {
  status: 'succeeded' | 'failed' | 'cancelled';
  outputs?: Record<string, unknown>;
  text?: string;
  error?: string;
}

const MAX_BATCH = 200;

interface FinishItem {
  runId: string;
  outcome: RunOutcome;
  executions: NodeExecution[];
}

/**
 * One run's outcome row and node-execution rows as jsonb-ready JSON text (without the brackets of the
 * list). Throws when the outputs cannot be serialized (nested too deep for JSON.stringify).
 */
function serializeFinished({ runId, outcome, executions }: FinishItem): [string, string | null] {
  const row = {
    id: runId,
    status: outcome.status,
    outputs: outcome.outputs ?? null,
    final_output: outcome.status === 'succeeded' ? (outcome.text ?? '') : null,
    error: outcome.error ?? null,
  };
  const rows = executions.map((e) => ({
    run_id: runId,
    node_id: e.nodeId,
    node_type: e.type,
    iteration_index: e.iterationIndex ?? null,
    status: e.status === 'running' ? 'failed' : e.status,
    error: e.error ?? null,
    duration_seconds: e.durationSeconds,
    parameters: e.parameters ?? {},
    outputs: e.outputs ?? {},
    started_at: e.startedAt,
  }));
  const list = rows.length > 0 ? storableJsonText(JSON.stringify(rows)).slice(1, -1) : null;
  return [storableJsonText(JSON.stringify(row)), list];
}

/**
 * Group commit: calls made in the same turn of the event loop share one statement. Under load a
 * runner claims and finishes dozens of runs per turn, and each round trip to the database costs more
 * CPU than a whole small run; alone, a call waits only for the current turn to end.
 */
export function groupCommit<T, R>(flush: (items: T[]) => Promise<R[]>) {
  const pending: { item: T; resolve(r: R): void; reject(e: unknown): void }[] = [];
  const run = () => {
    const batch = pending.splice(0, MAX_BATCH);
    if (pending.length > 0) setImmediate(run);
    flush(batch.map((p) => p.item)).then(
      (results) => batch.forEach((p, i) => p.resolve(results[i]!)),
      (error: unknown) => batch.forEach((p) => p.reject(error)),
    );
  };
  return (item: T) =>
    new Promise<R>((resolve, reject) => {
      if (pending.length === 0) setImmediate(run);
      pending.push({ item, resolve, reject });
    });
}

interface ClaimRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  chatbot_id: string | null;
  chatbot_type: 'chatflow' | 'workflow';
  conversation_id: string | null;
  trigger: 'test' | 'chat';
  status: RunRow['status'];
  config_version: number | null;
  configuration: RunRow['configuration'];
  inputs: Record<string, unknown>;
  started_by: string | null;
  attempts: number;
  created_at: string | Date;
  started_at: string | Date | null;
  cancel_requested_at: string | Date | null;
  chatbot_name: string | null;
  store_content: boolean | null;
}

const date = (v: string | Date | null) => (v === null ? null : new Date(v));

function toClaimed(r: ClaimRow): ClaimedRun {
  return {
    id: r.id,
    organizationId: r.organization_id,
    workspaceId: r.workspace_id,
    chatbotId: r.chatbot_id,
    chatbotType: r.chatbot_type,
    conversationId: r.conversation_id,
    trigger: r.trigger,
    status: r.status,
    configVersion: r.config_version,
    configuration: r.configuration,
    inputs: r.inputs,
    outputs: null,
    finalOutput: null,
    error: null,
    startedBy: r.started_by,
    attempts: r.attempts,
    createdAt: new Date(r.created_at),
    startedAt: date(r.started_at),
    finishedAt: null,
    heartbeatAt: new Date(),
    cancelRequestedAt: date(r.cancel_requested_at),
    chatbotName: r.chatbot_name,
    storeContent: r.store_content,
  };
}

export function createRunWrites(db: Db) {
  /** Takes queued runs (or running ones whose runner died: a second take), with their chatbot's name. */
  const claim = groupCommit<string, ClaimedRun | null>(async (ids) => {
    const claimed = await queryRows<ClaimRow>(
      db,
      sql`update runs r set status = 'running', attempts = r.attempts + 1,
                started_at = coalesce(r.started_at, now()), heartbeat_at = now()
          where r.id = any(${`{${ids.join(',')}}`}::uuid[]) and r.status in ('queued', 'running')
          returning r.id, r.organization_id, r.workspace_id, r.chatbot_id, r.chatbot_type, r.conversation_id,
            r.trigger, r.status, r.config_version, r.configuration, r.inputs, r.started_by, r.attempts,
            r.created_at, r.started_at, r.cancel_requested_at,
            (select name from chatbots c where c.id = r.chatbot_id) as chatbot_name,
            (select store_conversations from chatbots c where c.id = r.chatbot_id) as store_content`,
    );
    const byId = new Map(claimed.map((r) => [r.id, toClaimed(r)]));
    return ids.map((id) => byId.get(id) ?? null);
  });

  /**
   * Writes runs' outcomes and their node executions: one statement for the whole batch. What nodes
   * produced is made storable (NUL and lone surrogates become U+FFFD, see storable.ts); a run whose
   * result cannot be written (nested too deep to serialize, or refused by the database) takes its own
   * error and never the batch's: the batch is retried one run at a time.
   */
  async function writeFinished(items: FinishItem[]): Promise<void> {
    const outcomes: string[] = [];
    const executions: string[] = [];
    for (const item of items) {
      const [outcome, rows] = serializeFinished(item);
      outcomes.push(outcome);
      if (rows) executions.push(rows);
    }
    await db.execute(
      sql`with saved as (
            insert into node_executions (run_id, node_id, node_type, iteration_index, status, error,
              duration_seconds, parameters, outputs, started_at)
            select run_id, node_id, node_type, iteration_index, status, error, duration_seconds,
              coalesce(parameters, '{}'::jsonb), coalesce(outputs, '{}'::jsonb), started_at
            from jsonb_to_recordset(${`[${executions.join(',')}]`}::jsonb) as e(run_id uuid, node_id text,
              node_type text, iteration_index int, status text, error text, duration_seconds float8,
              parameters jsonb, outputs jsonb, started_at timestamptz)
          )
          update runs r set status = o.status, outputs = o.outputs, final_output = o.final_output,
            error = o.error, finished_at = now()
          from jsonb_to_recordset(${`[${outcomes.join(',')}]`}::jsonb) as o(id uuid, status text,
            outputs jsonb, final_output text, error text)
          where r.id = o.id`,
    );
  }

  const finishGroup = groupCommit<FinishItem, unknown>(async (items) => {
    try {
      await writeFinished(items);
      return items.map(() => null);
    } catch (error) {
      if (items.length === 1) return [error];
      return Promise.all(
        items.map((item) =>
          writeFinished([item]).then(
            () => null,
            (e: unknown) => e,
          ),
        ),
      );
    }
  });

  /** Writes one run's outcome and node executions (grouped with others); rejects when it failed. */
  async function finish(item: FinishItem): Promise<void> {
    const error = await finishGroup(item);
    if (error) throw error;
  }

  return { claim, finish };
}
