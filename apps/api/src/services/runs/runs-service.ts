import { randomUUID } from 'node:crypto';
import {
  chatbots,
  conversations,
  messages,
  nodeExecutions,
  fromDriver,
  insertInto,
  joinStatements,
  runs,
  statementRows,
  stmt,
  userWorkspaceRoles,
  verbatim,
  type Db,
  type Statement,
} from '@atelier/db';
import {
  groupCommit,
  isolating,
  oneAtATimePer,
  readTogether,
  questionCtes,
  QUEUE_UNAVAILABLE,
  recordAnswer,
  RUN_CANCELLED,
  RuntimeError,
  type Runtime,
} from '@atelier/runtime';
import {
  partsText,
  type FlowConfig,
  type MessagePart,
  type Run,
  type RunDetail,
  type RunStatus,
  type StartRunBody,
} from '@atelier/schemas';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import { reuseLastQuestion } from '../chat/conversations-service';
import type { ChatCaller } from '../chat/simple-chat';
import type { ChatbotRow } from '../chatbots/chatbot-view';
import type { ChatbotsService } from '../chatbots/chatbots-service';
import { liveChatbot } from '../chatbots/published';
import { assertChattable } from '../chat/conversations-service';
import { creditsLeftSql, insufficientCredits, type CreditsService } from '../credits/credits-service';
import { AppError, forbidden, notFound } from '../errors';
import { canBuild, type WorkspacesService } from '../workspaces/workspaces-service';
import { assertRunnable, parseFlowConfig, runnableConfig } from './flow-validation';

type RunRow = typeof runs.$inferSelect;
/** What a new run's row is given (the rest are the table's defaults). */
const RUN_KEYS = [
  'id',
  'organizationId',
  'workspaceId',
  'chatbotId',
  'chatbotType',
  'conversationId',
  'trigger',
  'configVersion',
  'configurationHash',
  'inputs',
  'startedBy',
  'apiKeyName',
] as const;
type ConversationRow = typeof conversations.$inferSelect;
type HistoryEntry = { role: 'user' | 'assistant'; content: string };
const RUN_NOT_STORED =
  'The run could not be started (the database did not answer in time). Please try again.';
/** Messages of the conversation given to a chatflow as its history. */
const HISTORY_LIMIT = 40;

/** A conversation's last messages as a flow's `history` (oldest first, text parts only). */
const toHistory = (rows: { role: 'user' | 'assistant'; content: { type: string; text?: string }[] }[]) =>
  rows.map((m) => ({
    role: m.role,
    content: partsText(m.content, '\n'),
  }));

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

  /** A run to store: its configuration goes to `flow_configurations` once, the run row names it. */
  type NewRun = Omit<typeof runs.$inferInsert, 'configurationHash' | 'id'> & { configuration: FlowConfig };
  const { flowConfigs } = runtime;
  const runValues = ({ configuration, ...values }: NewRun) => ({
    ...values,
    inputs: values.inputs ?? {},
    id: randomUUID(),
    configurationHash: flowConfigs.hashOf(configuration),
  });
  /** The CTE storing the configurations of `items` not known stored yet (none, mostly). */
  const configCtes = (items: NewRun[]): Statement[] => {
    const storing = flowConfigs.storing(items);
    return storing ? [stmt`stored_configurations as (${storing})`] : [];
  };
  /** The runs' insert after `ctes` (the text is fixed for a given shape: see `Statement` in @atelier/db). */
  const insertRunsAfter = (ctes: Statement[], values: ReturnType<typeof runValues>[]) =>
    stmt`${ctes.length > 0 ? stmt`with ${joinStatements(ctes, ', ')} ` : verbatim('')}${insertInto(runs, RUN_KEYS, values, true)}`;

  // Runs started in the same turn of the event loop are written in one statement (group commit).
  const insertRuns = groupCommit<NewRun, RunRow>(async (items) => {
    const values = items.map(runValues);
    const rows = await statementRows<Record<string, unknown>>(db, insertRunsAfter(configCtes(items), values));
    flowConfigs.stored(items);
    const byId = new Map(rows.map((r) => [r.id as string, fromDriver(runs, r)]));
    return values.map((v) => byId.get(v.id)!);
  });

  /**
   * Chat runs started in the same turn, with their questions: one statement for all (each question and
   * its run stored together: a process dying between two writes would leave a question no run answers).
   * A run whose question cannot be stored (its conversation deleted meanwhile) fails alone; a
   * conversation's second question of a turn waits for its first (see recordQuestion).
   */
  const insertChatRuns = isolating<{ values: NewRun; question: MessagePart[] }, RunRow>(async (items) => {
    const values = items.map((item) => runValues(item.values));
    const asked = questionCtes(
      items.map((item) => ({ conversationId: item.values.conversationId!, content: item.question })),
    );
    const news = items.map((item) => item.values);
    const rows = await statementRows<Record<string, unknown>>(
      db,
      insertRunsAfter([asked, ...configCtes(news)], values),
    );
    flowConfigs.stored(news);
    const byId = new Map(rows.map((r) => [r.id as string, fromDriver(runs, r)]));
    return values.map((v) => byId.get(v.id)!);
  });
  const chatRunInTurn = oneAtATimePer<string>();

  /**
   * Stores a run and queues it. When the queue is out of reach (Redis down) the caller gets its 503 and
   * the run is ended at once with that reason (its conversation gets the error): it never runs later,
   * unseen by a client that was told it failed.
   */
  async function create(values: NewRun, question?: MessagePart[]): Promise<RunRow> {
    let row: RunRow;
    try {
      if (question) {
        const stored = await insertChatRuns({ values, question });
        if ('error' in stored) throw stored.error;
        row = stored.ok;
      } else row = await insertRuns(values);
    } catch (error) {
      // A question stored earlier (asked again) whose run is not: it is answered with the reason (when
      // the database takes it), so no question stays without an answer.
      if (values.conversationId && !question) {
        await recordAnswer(
          db,
          values.conversationId,
          [{ type: 'text', text: `Error: ${RUN_NOT_STORED}` }],
          true,
        ).catch(() => undefined);
      }
      throw error;
    }
    try {
      await runtime.queue.enqueue(row.id);
    } catch (error) {
      const reason = error instanceof RuntimeError ? error.detail : QUEUE_UNAVAILABLE;
      await runtime.lifecycle
        .finish(row.id, { status: 'failed', error: reason }, ['queued'])
        .catch(() => false);
      throw error;
    }
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

  /**
   * A member's message to a flow in their own conversation needs the conversation, its chatbot, the
   * credits left and the conversation's last messages: one prepared statement for the conversations of
   * a turn (then the access rule, `assertChattable`, which asks the database only for members who are
   * not admins).
   */
  const ownChatContext = db
    .select({
      conversation: conversations,
      bot: chatbots,
      creditsLeft: creditsLeftSql(conversations.organizationId),
      history: sql<{ role: 'user' | 'assistant'; content: { type: string; text?: string }[] }[]>`(
        select coalesce(json_agg(json_build_object('role', h.role, 'content', h.content) order by h.created_at), '[]'::json)
        from (select m.role, m.content, m.created_at from ${messages} m
              where m.conversation_id = ${conversations.id}
              order by m.created_at desc limit ${sql.raw(String(HISTORY_LIMIT))}) h)`,
    })
    .from(conversations)
    .leftJoin(
      chatbots,
      and(
        eq(chatbots.id, conversations.chatbotId),
        eq(chatbots.organizationId, conversations.organizationId),
      ),
    )
    .where(sql`${conversations.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('run_own_chat_context');
  /** The conversations messaged in one turn, read together (one round trip for a burst). */
  const ownChatContexts = readTogether(
    (ids) => ownChatContext.execute({ ids }),
    (row) => row.conversation.id,
  );

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

  /** A run with its node executions. */
  async function detail(row: RunRow): Promise<RunDetail> {
    const executions = await db
      .select()
      .from(nodeExecutions)
      .where(eq(nodeExecutions.runId, row.id))
      .orderBy(asc(nodeExecutions.startedAt), asc(nodeExecutions.seq));
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
  }

  /**
   * Cancels a run: a queued one ends at once; a running one is told to stop (whichever process runs
   * it) and ends as cancelled. A finished run stays as it is.
   */
  async function cancelRun(row: RunRow): Promise<RunStatus> {
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
  }

  /**
   * A chat message to a chatflow or workflow: the question is stored, the published flow runs. A
   * member's message, or an end user's through the public API (`trigger` 'api'); `history` given in
   * the inputs replaces the conversation's (an OpenAI client sends the whole conversation each time).
   * `known`: the credits left and the history, when the caller read them already.
   */
  async function beginChat(
    caller: Principal | ChatCaller,
    conversation: ConversationRow,
    bot: ChatbotRow,
    inputData: Record<string, unknown>,
    trigger: 'chat' | 'api',
    regenerate: boolean,
    known: { creditsLeft: number; history: HistoryEntry[] } | null,
  ): Promise<RunRow> {
    // A conversation's messages are taken one at a time, in the order they came: the second waits for
    // the first to be stored (and reads it in its history), whatever its own reads took.
    return chatRunInTurn(conversation.id, () =>
      beginChatInTurn(caller, conversation, bot, inputData, trigger, regenerate, known),
    );
  }

  async function beginChatInTurn(
    ...[caller, conversation, bot, inputData, trigger, regenerate, known]: Parameters<typeof beginChat>
  ): Promise<RunRow> {
    bot = liveChatbot(bot);
    const type = flowType(bot);
    const config = runnableConfig(bot);
    if (known) {
      if (!(known.creditsLeft > 0)) throw insufficientCredits();
    } else {
      await deps.credits.ensureAvailable(caller.organizationId);
    }
    const query = typeof inputData.query === 'string' ? inputData.query : '';
    if (!query.trim() && Object.keys(inputData).length === 0) {
      throw new AppError(422, 'message_required', 'Please enter a message or upload an image');
    }
    // Regenerate or Retry: the last question again replaces its answer and is not stored twice.
    const question: MessagePart[] = [{ type: 'text', text: query }];
    const reused = regenerate && (await reuseLastQuestion(db, conversation.id, question));
    // The conversation so far is the input node's `history` (what LLM nodes take as past messages);
    // read again after a reuse (its old answer is gone, and the question is the one asked now).
    const history =
      (!reused && known?.history) ||
      toHistory(
        (
          await db
            .select({ role: messages.role, content: messages.content })
            .from(messages)
            .where(eq(messages.conversationId, conversation.id))
            .orderBy(desc(messages.createdAt))
            .limit(HISTORY_LIMIT)
        )
          .slice(reused ? 1 : 0)
          .reverse(),
      );
    return create(
      {
        organizationId: caller.organizationId,
        workspaceId: bot.workspaceId,
        chatbotId: bot.id,
        chatbotType: type,
        conversationId: conversation.id,
        trigger,
        configVersion: bot.configVersion,
        configuration: config,
        inputs: { history, ...inputData },
        startedBy: caller.userId,
        apiKeyName: 'apiKeyName' in caller ? caller.apiKeyName : null,
      },
      reused ? undefined : question,
    );
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

    /** A chat message to a chatflow or workflow (see beginChat). */
    async startChat(
      caller: Principal | ChatCaller,
      conversation: ConversationRow,
      bot: ChatbotRow,
      inputData: Record<string, unknown>,
      trigger: 'chat' | 'api' = 'chat',
      regenerate = false,
    ): Promise<RunRow> {
      return beginChat(caller, conversation, bot, inputData, trigger, regenerate, null);
    },

    /**
     * A member's message to a chatflow or workflow (`type`) in their own conversation: the checks of
     * `conversations.own`, `assertChattable` and the chatbot's type, then `startChat`, with what they
     * read in one round trip.
     */
    async startOwnChat(
      principal: Principal,
      conversationId: string,
      type: 'chatflow' | 'workflow',
      inputData: Record<string, unknown>,
      regenerate = false,
    ): Promise<RunRow> {
      const row = await ownChatContexts(conversationId);
      if (!row || row.conversation.userId !== principal.userId) throw notFound('conversation');
      const bot = await assertChattable(db, principal, row.bot, 'own');
      if (bot.type !== type) {
        throw new AppError(
          422,
          'wrong_chatbot_type',
          `Unsupported assistant type for sending message: ${bot.type}`,
        );
      }
      return beginChat(principal, row.conversation, bot, inputData, 'chat', regenerate, {
        creditsLeft: Number(row.creditsLeft),
        history: toHistory(row.history),
      });
    },

    get: async (principal: Principal, id: string): Promise<RunDetail> => detail(await visible(principal, id)),
    detail,

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

    /** Cancels a run its caller may see (see cancelRun). */
    cancel: async (principal: Principal, id: string): Promise<RunStatus> =>
      cancelRun(await visible(principal, id)),
    cancelRun,
  };
}

export type RunsService = ReturnType<typeof createRunsService>;
