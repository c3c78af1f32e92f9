import { nodeTypes, type NodeExecution } from '@atelier/schemas';
import { bounded, metrics, type Logger } from '@atelier/telemetry';
import type { EndedRun, RunOutcome } from './run-writes';

const NODE_TYPES = new Set<string>(nodeTypes);

/** A node type as a metric label or span attribute: the catalog's, never free text. */
export const nodeTypeLabel = (type: string) => bounded(type, NODE_TYPES);

/** One node execution's end on the metrics (called by the lifecycle as it records it). */
export function recordNodeEnd(execution: NodeExecution): void {
  const labels = {
    node_type: nodeTypeLabel(execution.type),
    status: execution.status === 'running' ? 'failed' : execution.status,
  };
  metrics.nodeExecutions.inc(labels);
  if (execution.status !== 'skipped') metrics.nodeDuration.observe(labels, execution.durationSeconds);
}

/** One run's end on the metrics and in the log (called by the lifecycle when it ended the run). */
export function recordRunEnd(runId: string, outcome: RunOutcome, ended: EndedRun, log?: Logger): void {
  const labels = { chatbot_type: ended.chatbotType, status: outcome.status };
  metrics.runsFinished.inc(labels);
  const durationMs = ended.startedAt ? ended.finishedAt.getTime() - ended.startedAt.getTime() : null;
  if (durationMs !== null) metrics.runDuration.observe(labels, Math.max(0, durationMs) / 1000);
  log?.info(
    {
      runId,
      chatbotType: ended.chatbotType,
      outcome: outcome.status,
      durationMs,
      ...(outcome.status !== 'succeeded' && outcome.error ? { reason: outcome.error } : {}),
    },
    'run ended',
  );
}
