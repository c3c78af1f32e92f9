import { chatbots, conversations, messages, type Db } from '@atelier/db';
import type { MeterWrite } from '@atelier/metering';
import type { Conversation, MessagePart } from '@atelier/schemas';
import type { MessageFeedback } from '@atelier/schemas/constants';
import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import { recordAnswer, recordQuestion } from '@atelier/runtime';
import type { Principal } from '../auth/principal';
import { hasChatbotAccess } from '../chatbots/chat-access';
import type { ChatbotRow } from '../chatbots/chatbot-view';
import { AppError, notFound } from '../errors';

type ConversationRow = typeof conversations.$inferSelect;

export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    title: row.title,
    chatbot_id: row.chatbotId ?? '',
    chatbot_type: row.chatbotType,
    updated_at: row.updatedAt.toISOString(),
    last_message_preview: row.lastMessagePreview,
  };
}

/** A conversation's messages, oldest first (whoever it belongs to: the caller has been checked). */
export async function historyOf(db: Db, conversationId: string) {
  const rows = await db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  return rows.map((m) => ({
    id: m.id,
    role: m.role,
    content: m.content,
    error: m.error,
    feedback: m.feedback,
    created_at: m.createdAt.toISOString(),
  }));
}

/**
 * Regenerate and Retry ask the last question again: when it is the conversation's last stored
 * question, the answers after it are deleted (the new one replaces them) and the question is not
 * stored twice. Answers whether the question is already stored; anything else (a question the server
 * never stored, say refused before its stream) is a new one, stored as usual.
 */
export async function reuseLastQuestion(db: Db, conversationId: string, question: MessagePart[]) {
  // Compared as jsonb (which orders keys its own way), not as text.
  const [lastQuestion] = await db
    .select({
      createdAt: messages.createdAt,
      same: sql<boolean>`${messages.content} = ${JSON.stringify(question)}::jsonb`,
    })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.role, 'user')))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  if (!lastQuestion?.same) return false;
  await db
    .delete(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.role, 'assistant'),
        gte(messages.createdAt, lastQuestion.createdAt),
      ),
    );
  return true;
}

type ReachedBy = 'chosen' | 'own';

/**
 * The chatbot a person may chat with now: it exists, is published, and they have access. Named by an
 * id the client `chose`, a chatbot without access answers exactly as an unknown id does, so ids cannot
 * be probed; the chatbot of the caller's `own` conversation says that access was lost.
 */
export async function chattableChatbot(
  db: Db,
  principal: Principal,
  chatbotId: string | null,
  reachedBy: ReachedBy = 'chosen',
): Promise<ChatbotRow> {
  const [bot] = chatbotId
    ? await chatbotQuery(db).execute({ id: chatbotId, organizationId: principal.organizationId })
    : [];
  return assertChattable(db, principal, bot ?? null, reachedBy);
}

/** An organization's chatbot by id: prepared once per database (a new conversation reads it). */
const chatbotQueries = new WeakMap<Db, ReturnType<typeof prepareChatbotQuery>>();
const prepareChatbotQuery = (db: Db) =>
  db
    .select()
    .from(chatbots)
    .where(
      and(
        eq(chatbots.id, sql.placeholder('id')),
        eq(chatbots.organizationId, sql.placeholder('organizationId')),
      ),
    )
    .limit(1)
    .prepare('chattable_chatbot');
function chatbotQuery(db: Db) {
  let query = chatbotQueries.get(db);
  if (!query) chatbotQueries.set(db, (query = prepareChatbotQuery(db)));
  return query;
}

const chatbotGone = () => new AppError(404, 'chatbot_deleted', 'This assistant no longer exists.');

export async function assertChattable(
  db: Db,
  principal: Principal,
  bot: ChatbotRow | null,
  reachedBy: ReachedBy = 'own',
): Promise<ChatbotRow> {
  if (!bot || bot.organizationId !== principal.organizationId) throw chatbotGone();
  if (!(await hasChatbotAccess(db, principal, bot))) {
    if (reachedBy === 'chosen') throw chatbotGone();
    throw new AppError(403, 'chatbot_access_revoked', 'You no longer have access to this assistant.');
  }
  if (!bot.isPublished)
    throw new AppError(409, 'chatbot_unpublished', 'This assistant is not published yet.');
  return bot;
}

export function createConversationsService(deps: { db: Db }) {
  const { db } = deps;

  /** A new conversation: prepared once (clients start one per chat). */
  const insertConversation = db
    .insert(conversations)
    .values({
      organizationId: sql.placeholder('organizationId'),
      userId: sql.placeholder('userId'),
      chatbotId: sql.placeholder('chatbotId'),
      chatbotType: sql.placeholder('chatbotType'),
      title: sql.placeholder('title'),
    })
    .returning({ id: conversations.id })
    .prepare('conversation_create');

  async function own(principal: Principal, id: string): Promise<ConversationRow> {
    const [row] = await db
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, id), eq(conversations.userId, principal.userId)))
      .limit(1);
    if (!row) throw notFound('conversation');
    return row;
  }

  return {
    own,

    async list(principal: Principal): Promise<Conversation[]> {
      const rows = await db
        .select()
        .from(conversations)
        .where(eq(conversations.userId, principal.userId))
        .orderBy(desc(conversations.updatedAt));
      return rows.map(toConversation);
    },

    async create(principal: Principal, input: { title: string; chatbot_id: string }): Promise<string> {
      const bot = await chattableChatbot(db, principal, input.chatbot_id);
      const [row] = await insertConversation.execute({
        organizationId: principal.organizationId,
        userId: principal.userId,
        chatbotId: bot.id,
        chatbotType: bot.type,
        title: input.title,
      });
      if (!row) throw new Error('insert returned nothing');
      return row.id;
    },

    async rename(principal: Principal, id: string, title: string) {
      await own(principal, id);
      await db.update(conversations).set({ title }).where(eq(conversations.id, id));
    },

    async remove(principal: Principal, id: string) {
      await own(principal, id);
      await db.delete(conversations).where(eq(conversations.id, id));
    },

    async history(principal: Principal, id: string) {
      await own(principal, id);
      return historyOf(db, id);
    },

    /** Thumbs up or down on an answer of the caller's conversation (null takes the rating back). */
    async rateMessage(
      principal: Principal,
      conversationId: string,
      messageId: string,
      rating: MessageFeedback | null,
    ) {
      await own(principal, conversationId);
      const [row] = await db
        .select({ role: messages.role })
        .from(messages)
        .where(and(eq(messages.id, messageId), eq(messages.conversationId, conversationId)))
        .limit(1);
      if (!row) throw notFound('message');
      if (row.role !== 'assistant') {
        throw new AppError(422, 'not_an_answer', "Only the assistant's answers can be rated.");
      }
      await db
        .update(messages)
        .set({ feedback: rating, feedbackAt: rating ? new Date() : null })
        .where(eq(messages.id, messageId));
    },

    /** Stores a user's question (grouped with the others of its turn) and moves the conversation to the top. */
    ask: (conversation: ConversationRow, content: MessagePart[]): Promise<string> =>
      recordQuestion(db, conversation.id, content),

    /** Stores an answer (with its call's log and charge) and moves the conversation to the top. */
    answer: (
      conversation: ConversationRow,
      content: MessagePart[],
      error = false,
      meter?: MeterWrite,
      id?: string,
    ): Promise<string> => recordAnswer(db, conversation.id, content, error, meter, id),
  };
}

export type ConversationsService = ReturnType<typeof createConversationsService>;
