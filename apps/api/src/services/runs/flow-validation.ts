import { patternProblems, validateFlow, type FlowProblem } from '@atelier/engine';
import { flowConfig, type FlowConfig } from '@atelier/schemas';
import { AppError } from '../errors';

/** A flow's problems as the API answers them (snake_case), with the node they concern. */
export const toProblem = (p: FlowProblem) => ({
  node_id: p.nodeId,
  field: p.field ?? null,
  code: p.code,
  message: p.message,
});

/** The configuration's shape (nodes and edges as the catalog describes them), or a 422 that says where. */
export function parseFlowConfig(configuration: unknown): FlowConfig {
  const parsed = flowConfig.safeParse(configuration);
  if (!parsed.success) {
    const where = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || 'configuration'}: ${i.message}`)
      .join('; ');
    throw new AppError(422, 'invalid_configuration', `The flow configuration is malformed. ${where}`);
  }
  return parsed.data;
}

/** Parsed and checked configurations of saved flows, by chatbot and version: a chat message re-reads its flow. */
const runnable = new Map<string, FlowConfig>();
const RUNNABLE_CACHE_SIZE = 500;

/**
 * A saved flow's configuration, parsed and checked to run (422 otherwise). Cached by the chatbot's id,
 * configuration version and last change: saving the flow bumps the version, so a cached entry is never
 * stale; only the check's outcome for a valid flow is kept.
 */
export function runnableConfig(bot: {
  id: string;
  configVersion: number;
  updatedAt: Date;
  configuration: unknown;
}): FlowConfig {
  const key = `${bot.id}:${bot.configVersion}:${bot.updatedAt.getTime()}`;
  const hit = runnable.get(key);
  if (hit) return hit;
  const config = parseFlowConfig(bot.configuration);
  assertRunnable(config);
  if (runnable.size >= RUNNABLE_CACHE_SIZE) runnable.delete(runnable.keys().next().value!);
  runnable.set(key, config);
  return config;
}

/** Refuses a flow that cannot run (publish, run), with every problem per node. */
export function assertRunnable(config: FlowConfig): void {
  refuse(validateFlow(config));
}

/**
 * Refuses a draft only for what could never be made to run: user patterns the linear-time regex engine
 * does not take. Empty or incomplete fields are saved as they are and reported at publish.
 */
export function assertSavable(config: FlowConfig): void {
  refuse(patternProblems(config));
}

function refuse(problems: FlowProblem[]): void {
  if (problems.length === 0) return;
  const first = problems[0]!;
  throw new AppError(
    422,
    'invalid_flow',
    `The flow has ${problems.length} problem${problems.length > 1 ? 's' : ''}: ${first.nodeId ? `${first.nodeId}: ` : ''}${first.message}`,
    {},
    { problems: problems.map(toProblem) },
  );
}
