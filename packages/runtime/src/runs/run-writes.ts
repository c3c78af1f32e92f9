import { statementRows, stmt, verbatim, type runs, type Db } from '@atelier/db';
import type { AnswerSource, NodeExecution, RunStatus } from '@atelier/schemas';
import { storableJsonText } from '@atelier/db';
import { answerColumns, answerWrites } from '../conversations/record-message';
import { groupCommit, isolating } from '../group-commit';
import { DEFAULT_RUN_LOCK_MS, lapsedBeforeStatement } from './run-lock';

type RunRow = typeof runs.$inferSelect;
export type ClaimedRun = RunRow & { chatbotName: string | null; storeContent: boolean | null };

export interface RunOutcome {
  status: 'succeeded' | 'failed' | 'cancelled';
  outputs?: Record<string, unknown>;
  text?: string;
  error?: string;
  /** Where the answer's passages came from (the run's knowledge retrieve nodes): stored with it. */
  sources?: AnswerSource[];
}

/** Node execution rows (see serializeNode) read from a JSON array `e`, for an insert. */
const NODE_COLUMNS = `run_id, node_id, node_type, iteration_index, status, error, duration_seconds, parameters,
  outputs, started_at`;
const NODE_VALUES = `run_id, node_id, node_type, iteration_index, status, error, duration_seconds,
  coalesce(parameters, '{}'::jsonb), coalesce(outputs, '{}'::jsonb), started_at`;
const NODE_RECORD = `e(run_id uuid, node_id text, node_type text, iteration_index int, status text, error text,
  duration_seconds float8, parameters jsonb, outputs jsonb, started_at timestamptz)`;

/** A run as its end left it (for its conversation's message, its metrics and its log line). */
export interface EndedRun {
  conversationId: string | null;
  chatbotType: 'chatflow' | 'workflow';
  startedAt: Date | null;
  finishedAt: Date;
}

interface FinishItem {
  runId: string;
  outcome: RunOutcome;
  /** What its conversation (if any) is answered: the final text, or the error (see lifecycle.ts). */
  answer: { text: string; failed: boolean; sources?: readonly AnswerSource[] };
  /** The statuses the run may have for this end to apply (from the state table, see lifecycle.ts). */
  from: readonly RunStatus[];
  /** Node executions written with the end (those that ended in the run's last turn), as JSON rows. */
  nodes?: string[];
}

export interface NodeItem {
  runId: string;
  execution: NodeExecution;
}

/** One run's outcome row as jsonb-ready JSON text. Throws when the outputs cannot be serialized. */
function serializeOutcome({ runId, outcome, from, answer }: FinishItem): string {
  const row = {
    ...answerColumns(answer.text, answer.failed, answer.sources),
    id: runId,
    status: outcome.status,
    outputs: outcome.outputs ?? null,
    final_output: outcome.status === 'succeeded' ? (outcome.text ?? '') : null,
    error: outcome.error ?? null,
    sources: from,
  };
  return storableJsonText(JSON.stringify(row));
}

/** One node execution row as jsonb-ready JSON text. Throws when its values cannot be serialized. */
export function serializeNode({ runId, execution: e }: NodeItem): string {
  const row = {
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
  };
  return storableJsonText(JSON.stringify(row));
}

interface ClaimRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  chatbot_id: string | null;
  chatbot_type: 'chatflow' | 'workflow';
  conversation_id: string | null;
  trigger: RunRow['trigger'];
  status: RunRow['status'];
  config_version: number | null;
  configuration_hash: string;
  inputs: Record<string, unknown>;
  started_by: string | null;
  api_key_name: string | null;
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
    configurationHash: r.configuration_hash,
    inputs: r.inputs,
    outputs: null,
    finalOutput: null,
    error: null,
    startedBy: r.started_by,
    apiKeyName: r.api_key_name,
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

export function createRunWrites(db: Db, claimFrom: readonly RunStatus[], lockMs = DEFAULT_RUN_LOCK_MS) {
  /**
   * Takes queued runs (or running ones whose runner died: a second take, only once the run lock has
   * lapsed, so a runner alive but late with the queue is left alone), with their chatbot's name.
   */
  const claim = groupCommit<string, ClaimedRun | null>(async (ids) => {
    const claimed = await statementRows<ClaimRow>(
      db,
      stmt`update runs r set status = 'running', attempts = r.attempts + 1,
                started_at = coalesce(r.started_at, now()), heartbeat_at = now()
          where r.id = any(${`{${ids.join(',')}}`}::uuid[]) and r.status = any(${`{${claimFrom.join(',')}}`}::text[])
            and (r.status <> 'running' or r.heartbeat_at is null or r.heartbeat_at < ${lapsedBeforeStatement(lockMs)})
          returning r.id, r.organization_id, r.workspace_id, r.chatbot_id, r.chatbot_type, r.conversation_id,
            r.trigger, r.status, r.config_version, r.configuration_hash, r.inputs, r.started_by, r.api_key_name, r.attempts,
            r.created_at, r.started_at, r.cancel_requested_at,
            (select name from chatbots c where c.id = r.chatbot_id) as chatbot_name,
            (select store_conversations from chatbots c where c.id = r.chatbot_id) as store_content`,
    );
    const byId = new Map(claimed.map((r) => [r.id, toClaimed(r)]));
    // One run claimed twice in a batch (delivered twice): the first claim takes it, as it would alone.
    return ids.map((id) => {
      const run = byId.get(id) ?? null;
      byId.delete(id);
      return run;
    });
  });

  /**
   * Writes node executions of any runs: one statement for the batch, kept only for runs still running
   * (a runner that outlived its run's end adds nothing to it). What nodes produced is made storable
   * (NUL and lone surrogates become U+FFFD, see storable.ts).
   */
  const nodeGroup = isolating<NodeItem, null>(async (items) => {
    const rows = items.map(serializeNode);
    await statementRows(
      db,
      stmt`insert into node_executions (${verbatim(NODE_COLUMNS)})
          select ${verbatim(NODE_VALUES)}
          from jsonb_to_recordset(${`[${rows.join(',')}]`}::jsonb) as ${verbatim(NODE_RECORD)}
          where exists (select 1 from runs r where r.id = e.run_id and r.status = 'running')`,
    );
    return items.map(() => null);
  });

  /**
   * Writes runs' outcomes of distinct runs: one statement, each row changed only from a status its end
   * allows (`sources`). Answers, per item, the run's conversation when this write ended it, or null.
   */
  async function endRuns(items: readonly FinishItem[]): Promise<(EndedRun | null)[]> {
    const outcomes = items.map(serializeOutcome);
    const nodes = items.flatMap((item) => item.nodes ?? []);
    const ended = await statementRows<{
      id: string;
      conversation_id: string | null;
      chatbot_type: EndedRun['chatbotType'];
      started_at: string | Date | null;
      finished_at: string | Date;
    }>(
      db,
      // The runs ended, their last node executions (only for the runs this statement ended) and their
      // conversations' answers: one statement for the batch.
      stmt`with ended as (
            update runs r set status = o.status, outputs = o.outputs, final_output = o.final_output,
              error = o.error, finished_at = now()
            from jsonb_to_recordset(${`[${outcomes.join(',')}]`}::jsonb) as o(id uuid, status text,
              outputs jsonb, final_output text, error text, sources text[], answer jsonb, preview text,
              failed boolean)
            where r.id = o.id and r.status = any(o.sources)
            returning r.id, r.conversation_id, r.chatbot_type, r.started_at, r.finished_at, o.answer,
              o.preview, o.failed),
          last_nodes as (
            insert into node_executions (${verbatim(NODE_COLUMNS)})
            select ${verbatim(NODE_VALUES)}
            from jsonb_to_recordset(${`[${nodes.join(',')}]`}::jsonb) as ${verbatim(NODE_RECORD)}
            where e.run_id in (select id from ended)),
          ${answerWrites('ended')}
          select id, conversation_id, chatbot_type, started_at, finished_at from ended`,
    );
    const byId = new Map(
      ended.map((r) => [
        r.id,
        {
          conversationId: r.conversation_id,
          chatbotType: r.chatbot_type,
          startedAt: date(r.started_at),
          finishedAt: new Date(r.finished_at),
        },
      ]),
    );
    return items.map((item) => byId.get(item.runId) ?? null);
  }

  /**
   * Writes runs' outcomes: one statement for the batch. Two ends of one run in a batch (the reaper
   * racing its runner) go in the order they came, one statement each, as if one came after the other:
   * one UPDATE joined to two rows of one run applies either, and the first caller could be told it
   * ended a run that the second's outcome then holds.
   */
  const finishGroup = isolating<FinishItem, EndedRun | null>(async (items) => {
    const rounds: FinishItem[][] = [];
    const seen = new Map<string, number>();
    for (const item of items) {
      const round = seen.get(item.runId) ?? 0;
      seen.set(item.runId, round + 1);
      (rounds[round] ??= []).push(item);
    }
    const results = new Map<FinishItem, EndedRun | null>();
    for (const round of rounds) {
      const ended = await endRuns(round);
      round.forEach((item, i) => results.set(item, ended[i]!));
    }
    return items.map((item) => results.get(item)!);
  });

  /** Writes one node execution (grouped with others); rejects when it failed. */
  async function node(item: NodeItem): Promise<void> {
    const result = await nodeGroup(item);
    if ('error' in result) throw result.error;
  }

  /** Ends one run (grouped with others): what it ended when this ended it, null when refused. */
  async function finish(item: FinishItem): Promise<EndedRun | null> {
    const result = await finishGroup(item);
    if ('error' in result) throw result.error;
    return result.ok;
  }

  return { claim, node, finish };
}
