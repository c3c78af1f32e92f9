import { randomUUID } from 'node:crypto';
import {
  chatbots,
  type conversations,
  messages,
  nodeExecutions,
  runs,
  userWorkspaceRoles,
  type Db,
} from '@atelier/db';
import { groupCommit, recordMessage, RUN_CANCELLED, type Runtime } from '@atelier/runtime';
import type { FlowConfig, Run, RunDetail, RunStatus, StartRunBody } from '@atelier/schemas';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import type { ChatbotRow } from '../chatbots/chatbot-view';
import type { ChatbotsService } from '../chatbots/chatbots-service';
import { creditsLeftSql, insufficientCredits, type CreditsService } from '../credits/credits-service';
import { AppError, forbidden, notFound } from '../errors';
import { canBuild, type WorkspacesService } from '../workspaces/workspaces-service';
import { assertRunnable, parseFlowConfig } from './flow-validation';

type RunRow = typeof runs.$inferSelect;
/** Messages of the conversation given to a chatflow as its history. */
const HISTORY_LIMIT = 40;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toRun(row: RunRow): Run {
  return {
    id: row.id,
    chatbot_id: row.chatbotId,
    chatbot_type: row.chatbotType,
    conversation_id: row.conversationId,
    trigger: row.trigger,
    status: row.status,
    config_version: row.configVersion,
    inputs: row.inputs,
    outputs: row.outputs,
    final_output: row.finalOutput,
    error: row.error,
    started_by: row.startedBy,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  };
}

function flowType(bot: ChatbotRow): 'chatflow' | 'workflow' {
  if (bot.type === 'simple') {
    throw new AppError(
      422,
      'wrong_chatbot_type',
      'A simple chatbot has no flow to run; chat with it instead.',
    );
  }
  return bot.type;
}

/**
 * Runs of chatflows and workflows: started from the editor (a test run of the saved configuration or
 * of a draft) or by a chat message, executed by the runtime's queue, followed through the event log.
 */
export function createRunsService(deps: {
  db: Db;
  runtime: Runtime;
  chatbots: ChatbotsService;
  workspaces: WorkspacesService;
  credits: CreditsService;
}) {
  const { db, runtime } = deps;

  // Runs started in the same turn of the event loop are written in one statement (group commit).
  const insertRuns = groupCommit<typeof runs.$inferInsert & { id: string }, RunRow>(async (values) => {
    const rows = await db.insert(runs).values(values).returning();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return values.map((v) => byId.get(v.id)!);
  });

  async function create(values: typeof runs.$inferInsert): Promise<RunRow> {
    const row = await insertRuns({ ...values, id: randomUUID() });
    await runtime.queue.enqueue(row.id);
    return row;
  }

  /**
   * Starting a test run needs the chatbot, the caller's role in its workspace and the credits left:
   * one prepared query (the same rules as a builder's read of the chatbot, and the 402 before work).
   */
  const startContext = db
    .select({
      bot: chatbots,
      role: userWorkspaceRoles.workspaceRoleId,
      creditsLeft: creditsLeftSql(chatbots.organizationId),
    })
    .from(chatbots)
    .leftJoin(
      userWorkspaceRoles,
      and(
        eq(userWorkspaceRoles.workspaceId, chatbots.workspaceId),
        eq(userWorkspaceRoles.userId, sql.placeholder('userId')),
      ),
    )
    .where(and(eq(chatbots.id, sql.placeholder('id')), eq(chatbots.organizationId, sql.placeholder('org'))))
    .limit(1)
    .prepare('run_start_context');

  async function buildable(principal: Principal, chatbotId: string): Promise<ChatbotRow> {
    const [row] = await startContext.execute({
      id: chatbotId,
      org: principal.organizationId,
      userId: principal.userId,
    });
    if (!row || principal.role === 'user' || (principal.role !== 'admin' && row.role === null)) {
      throw notFound('chatbot');
    }
    if (!canBuild(principal.role, row.role)) {
      throw forbidden('Only editors and administrators of this workspace can run its flows.');
    }
    if (!(Number(row.creditsLeft) > 0)) throw insufficientCredits();
    return row.bot;
  }

  /** A run its starter may follow; builders of the workspace may follow any run of it. */
  async function visible(principal: Principal, id: string): Promise<RunRow> {
    const [row] = await db
      .select()
      .from(runs)
      .where(and(eq(runs.id, id), eq(runs.organizationId, principal.organizationId)))
      .limit(1);
    if (!row) throw notFound('run');
    if (row.startedBy === principal.userId) return row;
    if (principal.role === 'user') throw notFound('run');
    await deps.workspaces.visible(principal, row.workspaceId).catch(() => {
      throw notFound('run');
    });
    return row;
  }

  return {
    visible,

    /** A test run from the editor: the draft on the canvas when given, else the saved configuration. */
    async startTest(principal: Principal, chatbotId: string, body: StartRunBody): Promise<RunRow> {
      const bot = await buildable(principal, chatbotId);
      const type = flowType(bot);
      const config: FlowConfig = parseFlowConfig(body.configuration ?? bot.configuration);
      assertRunnable(config);
      return create({
        organizationId: principal.organizationId,
        workspaceId: bot.workspaceId,
        chatbotId: bot.id,
        chatbotType: type,
        trigger: 'test',
        configVersion: body.configuration ? null : bot.configVersion,
        configuration: config,
        inputs: body.inputs,
        startedBy: principal.userId,
      });
    },

    /** A chat message to a chatflow or workflow: the question is stored, the published flow runs. */
    async startChat(
      principal: Principal,
      conversation: typeof conversations.$inferSelect,
      bot: ChatbotRow,
      inputData: Record<string, unknown>,
    ): Promise<RunRow> {
      const type = flowType(bot);
      const config = parseFlowConfig(bot.configuration);
      assertRunnable(config);
      await deps.credits.ensureAvailable(principal.organizationId);
      const query = typeof inputData.query === 'string' ? inputData.query : '';
      if (!query.trim() && Object.keys(inputData).length === 0) {
        throw new AppError(422, 'message_required', 'Please enter a message or upload an image');
      }
      // The conversation so far is the input node's `history` (what LLM nodes take as past messages).
      const earlier = await db
        .select({ role: messages.role, content: messages.content })
        .from(messages)
        .where(eq(messages.conversationId, conversation.id))
        .orderBy(desc(messages.createdAt))
        .limit(HISTORY_LIMIT);
      const history = earlier.reverse().map((m) => ({
        role: m.role,
        content: m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n'),
      }));
      await recordMessage(db, conversation.id, 'user', [{ type: 'text', text: query }]);
      return create({
        organizationId: principal.organizationId,
        workspaceId: bot.workspaceId,
        chatbotId: bot.id,
        chatbotType: type,
        conversationId: conversation.id,
        trigger: 'chat',
        configVersion: bot.configVersion,
        configuration: config,
        inputs: { history, ...inputData },
        startedBy: principal.userId,
      });
    },

    async get(principal: Principal, id: string): Promise<RunDetail> {
      const row = await visible(principal, id);
      const executions = await db
        .select()
        .from(nodeExecutions)
        .where(eq(nodeExecutions.runId, id))
        .orderBy(asc(nodeExecutions.startedAt));
      return {
        ...toRun(row),
        node_executions: executions.map((e) => ({
          node_id: e.nodeId,
          node_type: e.nodeType,
          iteration_index: e.iterationIndex,
          status: e.status,
          error: e.error,
          duration_seconds: e.durationSeconds,
          parameters: e.parameters,
          outputs: e.outputs,
          started_at: e.startedAt.toISOString(),
        })),
      };
    },

    async list(
      principal: Principal,
      chatbotId: string,
      query: { limit: number; status?: RunStatus | undefined },
    ): Promise<Run[]> {
      const bot = await deps.chatbots.forBuilder(principal, chatbotId, false);
      const where: SQL[] = [eq(runs.chatbotId, bot.id), eq(runs.organizationId, principal.organizationId)];
      if (query.status) where.push(eq(runs.status, query.status));
      const rows = await db
        .select()
        .from(runs)
        .where(and(...where))
        .orderBy(desc(runs.createdAt))
        .limit(query.limit);
      return rows.map(toRun);
    },

    /**
     * Cancels a run: a queued one ends at once; a running one is told to stop (whichever process runs
     * it) and ends as cancelled. A finished run stays as it is.
     */
    async cancel(principal: Principal, id: string): Promise<RunStatus> {
      const row = await visible(principal, id);
      const [asked] = await db
        .update(runs)
        .set({ cancelRequestedAt: new Date() })
        .where(and(eq(runs.id, row.id), inArray(runs.status, ['queued', 'running'])))
        .returning({ status: runs.status });
      if (!asked) return row.status;
      // Queued: ended here (row, the conversation's error message, the terminal event), unless a
      // runner took it meanwhile.
      const ended = await runtime.lifecycle.finish(row.id, { status: 'cancelled', error: RUN_CANCELLED }, [
        'queued',
      ]);
      if (ended) return 'cancelled';
      // Running (or taken by a runner just now): tell the runner, wherever it is.
      await runtime.cancels.cancel(row.id);
      return 'running';
    },
  };
}

export type RunsService = ReturnType<typeof createRunsService>;
