import { chatbots, conversations, inferenceLogs, messages, runs, type Db } from '@atelier/db';
import type { EventLog } from '@atelier/runtime';
import type {
  AnswerSource,
  CompletionUsage,
  Conversation,
  InputPart,
  SimpleMessageBody,
  SimpleStreamEvent,
} from '@atelier/schemas';
import { partsText, TERMINAL_EVENTS } from '@atelier/schemas';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { ChatbotRow } from '../chatbots/chatbot-view';
import { historyOf, toConversation } from '../chat/conversations-service';
import type { PreparedChat, SimpleChat } from '../chat/simple-chat';
import { AppError, notFound } from '../errors';
import type { RunsService } from '../runs/runs-service';
import { callerOfEndUser, owns, ownedBy, type EndUser } from './end-user';

type ConversationRow = typeof conversations.$inferSelect;
type RunRow = typeof runs.$inferSelect;
/** An earlier turn of the conversation, as text. */
export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

/** A message on its way: a simple chatbot's answer to stream, or the flow run that answers it. */
export type PublicTurn =
  | { kind: 'simple'; conversation: ConversationRow; prepared: PreparedChat }
  | { kind: 'flow'; conversation: ConversationRow; run: RunRow };

/** How an answer ended, for the callers that wait for it. */
export interface PublicAnswer {
  answer: string;
  status: 'succeeded' | 'failed' | 'cancelled';
  error: string | null;
  /** Where the answer's context came from (its knowledge passages), best first. */
  sources: AnswerSource[];
}

/** Turns of a conversation given as history (as the chat's own flows take). */
const HISTORY_LIMIT = 40;

/**
 * The one place a chatbot answers an end user from outside the organization (the public API now, a
 * key-less public chat later): the conversation is theirs or new, the answer is the simple chat's or a
 * flow run's, charged to the organization and logged through the same services as the app's own chat.
 */
export function createPublicChat(deps: {
  db: Db;
  simpleChat: SimpleChat;
  runs: RunsService;
  events: EventLog;
}) {
  const { db } = deps;

  async function chatbot(endUser: EndUser): Promise<ChatbotRow> {
    const [bot] = await db
      .select()
      .from(chatbots)
      .where(and(eq(chatbots.id, endUser.chatbotId), eq(chatbots.organizationId, endUser.organizationId)))
      .limit(1);
    return reachable(bot ?? null);
  }

  function reachable(bot: ChatbotRow | null): ChatbotRow {
    if (!bot) throw new AppError(404, 'chatbot_deleted', 'This assistant no longer exists.');
    if (!bot.isPublished)
      throw new AppError(409, 'chatbot_unpublished', 'This assistant is not published yet.');
    return bot;
  }

  async function conversation(endUser: EndUser, id: string): Promise<ConversationRow> {
    const [row] = await db
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, id), ownedBy(endUser)))
      .limit(1);
    if (!row) throw notFound('conversation');
    return row;
  }

  async function newConversation(endUser: EndUser, bot: ChatbotRow): Promise<ConversationRow> {
    const [row] = await db
      .insert(conversations)
      .values({
        organizationId: endUser.organizationId,
        userId: null,
        apiKeyId: endUser.apiKey?.id ?? null,
        endUser: endUser.user,
        chatbotId: bot.id,
        chatbotType: bot.type,
      })
      .returning();
    if (!row) throw new Error('insert returned nothing');
    return row;
  }

  /** The conversation's last turns as text (what a continued simple chat sends its model). */
  async function storedTurns(conversationId: string): Promise<Turn[]> {
    const rows = await db
      .select({ role: messages.role, content: messages.content, error: messages.error })
      .from(messages)
      .where(eq(messages.conversationId, conversationId))
      .orderBy(desc(messages.createdAt))
      .limit(HISTORY_LIMIT);
    return rows
      .reverse()
      .filter((m) => !m.error)
      .map((m) => ({
        role: m.role === 'user' ? 'user' : 'assistant',
        content: partsText(m.content, '\n'),
      }));
  }

  /** The turn in its conversation; a conversation made for it is removed again if it is refused. */
  async function inConversation<T>(
    endUser: EndUser,
    bot: ChatbotRow,
    conversationId: string | undefined,
    start: (conversation: ConversationRow) => Promise<T>,
  ): Promise<T> {
    if (conversationId) return start(await conversation(endUser, conversationId));
    const created = await newConversation(endUser, bot);
    try {
      return await start(created);
    } catch (error) {
      await db.delete(conversations).where(eq(conversations.id, created.id));
      throw error;
    }
  }

  return {
    chatbot,

    /**
     * Sends an end user's message: everything that can be refused is refused here (JSON errors, before
     * any stream). `earlier` is the conversation so far when the client keeps it (OpenAI clients);
     * otherwise the stored conversation is used. `inputs` are a flow's additional input fields.
     */
    async send(
      endUser: EndUser,
      input: {
        conversationId?: string | undefined;
        message: string | InputPart[];
        earlier?: Turn[] | undefined;
        inputs?: Record<string, unknown>;
      },
    ): Promise<PublicTurn> {
      const bot = await chatbot(endUser);
      const caller = callerOfEndUser(endUser);
      return inConversation(endUser, bot, input.conversationId, async (conv) => {
        if (bot.type === 'simple') {
          const earlier = input.earlier ?? (input.conversationId ? await storedTurns(conv.id) : []);
          const body: SimpleMessageBody = {
            messages: [...earlier, { role: 'user', content: input.message }],
          };
          const prepared = await deps.simpleChat.prepareAs(
            conv.id,
            { owns: (c) => owns(endUser, c), chatbot: reachable },
            caller,
            body,
          );
          return { kind: 'simple', conversation: conv, prepared };
        }
        const inputData: Record<string, unknown> = {
          ...input.inputs,
          query: partsText(input.message),
          ...(input.earlier ? { history: input.earlier } : {}),
        };
        const run = await deps.runs.startChat(caller, conv, bot, inputData, 'api');
        return { kind: 'flow', conversation: conv, run };
      });
    },

    /** A workflow run with these inputs, in a new conversation of the end user's. */
    async startWorkflow(endUser: EndUser, inputs: Record<string, unknown>) {
      const bot = await chatbot(endUser);
      if (bot.type !== 'workflow') {
        throw new AppError(
          422,
          'wrong_chatbot_type',
          `This assistant is a ${bot.type}: send it messages instead of starting runs.`,
        );
      }
      return inConversation(endUser, bot, undefined, async (conv) => ({
        conversation: conv,
        run: await deps.runs.startChat(callerOfEndUser(endUser), conv, bot, inputs, 'api'),
      }));
    },

    /** Streams a simple chatbot's answer (stored, logged and charged at its end). */
    streamSimple: (prepared: PreparedChat, send: (event: SimpleStreamEvent) => void, signal: AbortSignal) =>
      deps.simpleChat.run(prepared, send, signal),

    /** Waits for a turn's answer (the callers that do not stream). */
    async answer(turn: PublicTurn, signal: AbortSignal): Promise<PublicAnswer> {
      if (turn.kind === 'simple') {
        let text = '';
        let error: string | null = null;
        let sources: AnswerSource[] = [];
        await deps.simpleChat.run(
          turn.prepared,
          (event) => {
            if (event.type === 'text') text += event.text;
            if (event.type === 'sources') sources = event.sources;
            if (event.type === 'inference_error') error = event.message;
          },
          signal,
        );
        return {
          answer: text,
          status: error === null ? 'succeeded' : 'failed',
          error,
          sources: error === null ? sources : [],
        };
      }
      const { run, sources } = await runEnd(turn.run.id, signal);
      const status = run.status === 'succeeded' || run.status === 'cancelled' ? run.status : 'failed';
      return {
        answer: run.finalOutput ?? '',
        status,
        error: run.error,
        sources: status === 'succeeded' ? sources : [],
      };
    },

    /** The tokens the conversation's model calls used, from their inference logs. */
    async usage(conversationId: string): Promise<CompletionUsage> {
      const [row] = await db
        .select({
          input: sql<number>`coalesce(sum(${inferenceLogs.inputTokens}), 0)::int`,
          output: sql<number>`coalesce(sum(${inferenceLogs.outputTokens}), 0)::int`,
        })
        .from(inferenceLogs)
        .where(eq(inferenceLogs.conversationId, conversationId));
      const input = Number(row?.input ?? 0);
      const output = Number(row?.output ?? 0);
      return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
    },

    async conversations(endUser: EndUser): Promise<Conversation[]> {
      const rows = await db
        .select()
        .from(conversations)
        .where(ownedBy(endUser))
        .orderBy(desc(conversations.updatedAt));
      return rows.map(toConversation);
    },

    async history(endUser: EndUser, conversationId: string) {
      await conversation(endUser, conversationId);
      return historyOf(db, conversationId);
    },

    /** A run of one of the end user's conversations. */
    async run(endUser: EndUser, runId: string): Promise<RunRow> {
      const [row] = await db
        .select({ run: runs })
        .from(runs)
        .innerJoin(conversations, eq(conversations.id, runs.conversationId))
        .where(and(eq(runs.id, runId), ownedBy(endUser)))
        .limit(1);
      if (!row) throw notFound('run');
      return row.run;
    },
  };

  /**
   * Follows a run's event log to its end, keeping the last `sources` event's passages (each holds all
   * found so far); the row is final before the terminal event is logged.
   */
  async function runEnd(
    runId: string,
    signal: AbortSignal,
  ): Promise<{ run: RunRow; sources: AnswerSource[] }> {
    let sources: AnswerSource[] = [];
    for await (const { event } of deps.events.read(runId, null, signal, { follow: true })) {
      if (event.type === 'sources') sources = event.sources;
      if (TERMINAL_EVENTS.includes(event.type)) break;
    }
    const [row] = await db.select().from(runs).where(eq(runs.id, runId)).limit(1);
    if (!row) throw notFound('run');
    return { run: row, sources };
  }
}

export type PublicChat = ReturnType<typeof createPublicChat>;
