import { randomUUID } from 'node:crypto';
import { chatbots, conversations, models, providers, type Db } from '@atelier/db';
import { alias } from 'drizzle-orm/pg-core';
import { creditsLeftSql, meteredChat, writeMetered } from '@atelier/metering';
import { readTogether } from '@atelier/runtime';
import { ProviderError, type ChatMessage, type ChatRequest, type ContentPart } from '@atelier/providers';
import {
  partsText,
  type MessagePart,
  type SimpleMessageBody,
  type SimpleStreamEvent,
} from '@atelier/schemas';
import { and, eq, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import type { ChatbotRow } from '../chatbots/chatbot-view';
import { liveChatbot, liveFallbackModelId, liveModelId } from '../chatbots/published';
import { insufficientCredits, type CreditsService } from '../credits/credits-service';
import { AppError } from '../errors';
import type { ProvidersService } from '../providers/providers-service';
import { assertChattable, reuseLastQuestion, type ConversationsService } from './conversations-service';
import { systemPrompt, type KnowledgeRetriever } from './knowledge-seam';

type Target = { model: typeof models.$inferSelect; provider: typeof providers.$inferSelect };
const IMAGE_URL = /^(data:image\/(jpeg|png|gif|webp);base64,|https?:\/\/)/;

export interface SimpleChatDeps {
  db: Db;
  conversations: ConversationsService;
  providers: ProvidersService;
  credits: CreditsService;
  knowledge: KnowledgeRetriever;
}

/** Who a chat answer works for: a member of the organization, or an end user of the public API. */
export interface ChatCaller {
  organizationId: string;
  userId: string | null;
  /** The API key the message came through: its name goes on the inference log. */
  apiKeyName: string | null;
}

export const callerOf = (principal: Principal): ChatCaller => ({
  organizationId: principal.organizationId,
  userId: principal.userId,
  apiKeyName: null,
});

/** How a caller is shown to own a conversation and to reach its chatbot (the chatbot is null if gone). */
export interface ChatAccess {
  owns(conversation: typeof conversations.$inferSelect): boolean;
  chatbot(bot: ChatbotRow | null): Promise<ChatbotRow> | ChatbotRow;
}

export interface PreparedChat {
  caller: ChatCaller;
  conversation: Awaited<ReturnType<ConversationsService['own']>>;
  bot: ChatbotRow;
  primary: Target;
  fallback: Target | null;
  messages: ChatMessage[];
  last: ChatMessage & { role: 'user' };
  regenerate: boolean;
}

export function createSimpleChat(deps: SimpleChatDeps) {
  const { db } = deps;

  const fallbackModels = alias(models, 'fallback_models');
  const fallbackProviders = alias(providers, 'fallback_providers');

  /** Conversations, each with its chatbot, both models with their providers and the credits left. */
  const loadQuery = db
    .select({
      conversation: conversations,
      bot: chatbots,
      model: models,
      provider: providers,
      fallbackModel: fallbackModels,
      fallbackProvider: fallbackProviders,
      creditsLeft: creditsLeftSql(conversations.organizationId),
    })
    .from(conversations)
    .leftJoin(
      chatbots,
      and(
        eq(chatbots.id, conversations.chatbotId),
        eq(chatbots.organizationId, conversations.organizationId),
      ),
    )
    .leftJoin(models, eq(models.id, liveModelId))
    .leftJoin(providers, eq(providers.id, models.providerId))
    .leftJoin(fallbackModels, eq(fallbackModels.id, liveFallbackModelId))
    .leftJoin(fallbackProviders, eq(fallbackProviders.id, fallbackModels.providerId))
    .where(sql`${conversations.id} = any(${sql.placeholder('ids')}::uuid[])`)
    .prepare('chat_load');
  /**
   * The conversations asked for in one turn of the event loop, read together: a burst of chats costs
   * one round trip, not one each (a round trip is a large part of an answer's CPU, in the API and in
   * the database).
   */
  const loadTogether = readTogether(
    (ids) => loadQuery.execute({ ids }),
    (row) => row.conversation.id,
  );

  /** The conversation with all it needs, if it is the caller's (else 404). */
  async function load(conversationId: string, access: ChatAccess) {
    const row = await loadTogether(conversationId);
    if (!row || !access.owns(row.conversation))
      throw new AppError(404, 'not_found', 'The conversation was not found or is not visible to you.');
    return row;
  }

  function toMessages(body: SimpleMessageBody, multimodal: boolean): ChatMessage[] {
    return body.messages
      .filter((m) => m.role !== 'system')
      .map((m) => {
        if (typeof m.content !== 'string') {
          for (const part of m.content) {
            if (part.type !== 'image') continue;
            if (!IMAGE_URL.test(part.url)) throw new AppError(422, 'invalid_image', 'Invalid image format');
            if (!multimodal) {
              throw new AppError(422, 'images_not_supported', "This assistant's model does not read images.");
            }
          }
        }
        return m.role === 'user'
          ? { role: 'user' as const, content: m.content as string | ContentPart[] }
          : { role: 'assistant' as const, content: partsText(m.content as string | ContentPart[]) };
      });
  }

  /**
   * Everything that can be refused is checked here, before the stream starts (JSON errors): one round
   * trip loads the conversation, its chatbot, both models and the credits left.
   */
  async function prepareAs(
    conversationId: string,
    access: ChatAccess,
    caller: ChatCaller,
    body: SimpleMessageBody,
  ): Promise<PreparedChat> {
    const row = await load(conversationId, access);
    const { conversation } = row;
    const bot = liveChatbot(await access.chatbot(row.bot));
    if (bot.type !== 'simple') {
      throw new AppError(
        422,
        'wrong_chatbot_type',
        `Unsupported assistant type for sending message: ${bot.type}`,
      );
    }
    if (!row.model || !row.provider) {
      throw new AppError(409, 'model_missing', 'This assistant has no model; ask its builder to choose one.');
    }
    const primary: Target = { model: row.model, provider: row.provider };
    const fallback: Target | null =
      row.fallbackModel && row.fallbackProvider
        ? { model: row.fallbackModel, provider: row.fallbackProvider }
        : null;
    const messages = toMessages(body, primary.model.modelType === 'llm-multimodal');
    const last = messages.at(-1);
    if (!last || last.role !== 'user' || (typeof last.content === 'string' && !last.content.trim())) {
      throw new AppError(422, 'message_required', 'Please enter a message or upload an image');
    }
    if (!(Number(row.creditsLeft) > 0)) throw insufficientCredits();
    return {
      caller,
      conversation,
      bot,
      primary,
      fallback,
      messages,
      last,
      regenerate: body.regenerate === true,
    };
  }

  return {
    /** A member's message in their own conversation. */
    prepare: (principal: Principal, conversationId: string, body: SimpleMessageBody) =>
      prepareAs(
        conversationId,
        {
          owns: (c) => c.userId === principal.userId,
          chatbot: (bot) => assertChattable(db, principal, bot),
        },
        callerOf(principal),
        body,
      ),

    /** Any other caller's (the public API's end users, `services/public-chat`). */
    prepareAs,

    /** Streams the answer through `send`, then stores it, logs the call and charges the credits. */
    async run(
      prepared: PreparedChat,
      send: (event: SimpleStreamEvent) => void,
      signal: AbortSignal,
    ): Promise<void> {
      const { caller, conversation, bot, primary, fallback, messages, last } = prepared;
      const userContent: MessagePart[] =
        typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
      // Stored while the model answers, from its first token (or its end, if none came): the work before
      // the first token is what every stream of a burst waits for, so the write is not part of it. A
      // regenerated answer replaces the last one, and its question (already stored) is not stored again.
      let savingUser: Promise<void> | null = null;
      const saveQuestion = () =>
        (savingUser ??= (
          prepared.regenerate ? reuseLastQuestion(db, conversation.id, userContent) : Promise.resolve(false)
        ).then(async (stored) => {
          if (!stored) await deps.conversations.ask(conversation, userContent);
        }));
      const scope = {
        organizationId: caller.organizationId,
        workspaceId: bot.workspaceId,
        userId: caller.userId,
        apiKeyName: caller.apiKeyName,
        chatbotId: bot.id,
        chatbotName: bot.name,
        conversationId: conversation.id,
        storeContent: bot.storeConversations,
      };
      const passages = await deps.knowledge
        .retrieve({
          scope,
          collectionIds: bot.knowledgeCollectionIds,
          query: partsText(last.content),
          earlier: messages.slice(0, -1).flatMap((m) => (m.role === 'user' ? [partsText(m.content)] : [])),
          signal,
        })
        .catch(async (error: unknown) => {
          await saveQuestion().catch(() => undefined); // the question is kept when retrieval fails
          throw error;
        });
      const sources = passages.map((p) => p.source);
      const request: Omit<ChatRequest, 'model'> = {
        system: systemPrompt(bot.instruction, passages),
        messages,
      };
      // The answer's id is chosen now, so the client can rate it as soon as it is stored.
      const answerId = randomUUID();
      send({ type: 'start', conversation_id: conversation.id, message_id: answerId });
      if (sources.length > 0) send({ type: 'sources', sources });

      const cancelledBy = (error: unknown) =>
        (error instanceof ProviderError && error.code === 'cancelled') || signal.aborted;
      const failureOf = (error: unknown) =>
        error instanceof ProviderError
          ? error
          : new ProviderError(
              'provider_error',
              `An error occurred during inference: ${(error as Error).message}`,
            );
      let text = '';
      let modelFailed = false;
      await meteredChat({
        db,
        scope,
        primary,
        fallback,
        request,
        chatOf: (t) => {
          const chat = deps.providers.adaptersFor(t.provider).chat;
          if (!chat) throw new ProviderError('unsupported', 'This provider cannot chat.');
          return chat;
        },
        signal,
        onToken: (delta) => {
          text += delta;
          send({ type: 'text', text: delta });
          // Awaited by the write at the end; this only keeps a rejection from counting as unhandled.
          saveQuestion().catch(() => undefined);
        },
        description: `Chat with ${bot.name}`,
        metadata: { chatbot_id: bot.id },
        describeError: (error) =>
          cancelledBy(error) ? 'The client left before the answer ended.' : failureOf(error).detail,
        // The answer, its conversation's order, the log row and the charge (with a due monthly renewal):
        // one statement shared with the organization's answers ending meanwhile, after the question's
        // (recordAnswer makes the content storable).
        write: async (write, outcome) => {
          modelFailed = outcome.error !== null;
          const failure = modelFailed ? failureOf(outcome.error) : null;
          const cancelled = outcome.error !== null && cancelledBy(outcome.error);
          if (failure && !cancelled) {
            send({
              type: 'inference_error',
              message: failure.detail,
              code: failure.code,
              status: failure.code === 'timeout' ? 504 : failure.status,
            });
          } else if (!failure) {
            send({ type: 'end', fallback: outcome.fallback });
          }
          // Stopped (the person pressed Stop, or left): the text so far is the answer, kept as any
          // other; a stop before the first token leaves no answer (the call is still logged).
          const stopped = cancelled && !text;
          const failed = failure !== null && !cancelled;
          const answer: MessagePart[] = [
            { type: 'text', text: failed && !text ? `Error: ${write.row.errorMessage}` : text },
            ...(sources.length > 0 && !failed ? [{ type: 'sources' as const, sources }] : []),
          ];
          if (stopped) {
            await writeMetered(db, write);
            await saveQuestion();
            return;
          }
          try {
            await saveQuestion();
            await deps.conversations.answer(conversation, answer, failed, write, answerId);
          } catch (error) {
            // The call is logged and charged even when its answer cannot be stored.
            await writeMetered(db, write);
            throw error;
          }
        },
      }).catch((error: unknown) => {
        // A failed answer has been told to the client and recorded: it ends the stream, not the request.
        if (!modelFailed) throw error;
      });
    },
  };
}

export type SimpleChat = ReturnType<typeof createSimpleChat>;
