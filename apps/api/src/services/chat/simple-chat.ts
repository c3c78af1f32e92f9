import { chatbots, conversations, models, providers, type Db } from '@atelier/db';
import { alias } from 'drizzle-orm/pg-core';
import { creditsLeftSql, meteredChat, meterWriteCtes, writeMetered } from '@atelier/metering';
import { ProviderError, type ChatMessage, type ChatRequest, type ContentPart } from '@atelier/providers';
import type { MessagePart, SimpleMessageBody, SimpleStreamEvent } from '@atelier/schemas';
import { and, eq, sql } from 'drizzle-orm';
import type { Principal } from '../auth/principal';
import type { ChatbotRow } from '../chatbots/chatbot-view';
import { insufficientCredits, type CreditsService } from '../credits/credits-service';
import { AppError } from '../errors';
import type { ProvidersService } from '../providers/providers-service';
import { assertChattable, type ConversationsService } from './conversations-service';
import { systemPrompt, type KnowledgeRetriever } from './knowledge-seam';

type Target = { model: typeof models.$inferSelect; provider: typeof providers.$inferSelect };
const IMAGE_URL = /^(data:image\/(jpeg|png|gif|webp);base64,|https?:\/\/)/;

const textOf = (content: string | ContentPart[]) =>
  typeof content === 'string'
    ? content
    : content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(' ');

export interface SimpleChatDeps {
  db: Db;
  conversations: ConversationsService;
  providers: ProvidersService;
  credits: CreditsService;
  knowledge: KnowledgeRetriever;
}

export interface PreparedChat {
  principal: Principal;
  conversation: Awaited<ReturnType<ConversationsService['own']>>;
  bot: ChatbotRow;
  primary: Target;
  fallback: Target | null;
  messages: ChatMessage[];
  last: ChatMessage & { role: 'user' };
}

export function createSimpleChat(deps: SimpleChatDeps) {
  const { db } = deps;

  const fallbackModels = alias(models, 'fallback_models');
  const fallbackProviders = alias(providers, 'fallback_providers');

  /** The conversation, its chatbot, and both models with their providers: one prepared round trip. */
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
    .leftJoin(models, eq(models.id, chatbots.modelId))
    .leftJoin(providers, eq(providers.id, models.providerId))
    .leftJoin(fallbackModels, eq(fallbackModels.id, chatbots.fallbackModelId))
    .leftJoin(fallbackProviders, eq(fallbackProviders.id, fallbackModels.providerId))
    .where(
      and(
        eq(conversations.id, sql.placeholder('conversationId')),
        eq(conversations.userId, sql.placeholder('userId')),
      ),
    )
    .limit(1)
    .prepare('chat_load');

  async function load(principal: Principal, conversationId: string) {
    const [row] = await loadQuery.execute({ conversationId, userId: principal.userId });
    if (!row)
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
          : { role: 'assistant' as const, content: textOf(m.content as string | ContentPart[]) };
      });
  }

  return {
    /** Everything that can be refused is checked here, before the stream starts (JSON errors). */
    async prepare(
      principal: Principal,
      conversationId: string,
      body: SimpleMessageBody,
    ): Promise<PreparedChat> {
      // One round trip loads the conversation, its chatbot, both models and the credits left.
      const row = await load(principal, conversationId);
      const { conversation } = row;
      const bot: ChatbotRow = await assertChattable(db, principal, row.bot);
      if (bot.type !== 'simple') {
        throw new AppError(
          422,
          'wrong_chatbot_type',
          `Unsupported assistant type for sending message: ${bot.type}`,
        );
      }
      if (!row.model || !row.provider) {
        throw new AppError(
          409,
          'model_missing',
          'This assistant has no model; ask its builder to choose one.',
        );
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
      return { principal, conversation, bot, primary, fallback, messages, last };
    },

    /** Streams the answer through `send`, then stores it, logs the call and charges the credits. */
    async run(
      prepared: PreparedChat,
      send: (event: SimpleStreamEvent) => void,
      signal: AbortSignal,
    ): Promise<void> {
      const { principal, conversation, bot, primary, fallback, messages, last } = prepared;
      const userContent: MessagePart[] =
        typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
      // Stored while the model answers: the first token does not wait for the write.
      const savingUser = deps.conversations.record(conversation, 'user', userContent);
      savingUser.catch(() => undefined); // awaited below; this only keeps the rejection from counting as unhandled
      const passages = await deps.knowledge.retrieve({
        organizationId: principal.organizationId,
        collectionIds: bot.knowledgeCollectionIds,
        query: textOf(last.content),
        signal,
      });
      const request: Omit<ChatRequest, 'model'> = {
        system: systemPrompt(bot.instruction, passages),
        messages,
      };
      send({ type: 'start', conversation_id: conversation.id, message_id: '' });

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
        scope: {
          organizationId: principal.organizationId,
          workspaceId: bot.workspaceId,
          userId: principal.userId,
          chatbotId: bot.id,
          chatbotName: bot.name,
          conversationId: conversation.id,
          storeContent: bot.storeConversations,
        },
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
        },
        description: `Chat with ${bot.name}`,
        metadata: { chatbot_id: bot.id },
        describeError: (error) =>
          cancelledBy(error) ? 'The client left before the answer ended.' : failureOf(error).detail,
        // The answer, its conversation's order, the log row and the charge (with a due monthly renewal):
        // one statement, after the question's (recordMessage makes the content storable).
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
          const answer: MessagePart[] = [
            { type: 'text', text: failure && !text ? `Error: ${write.row.errorMessage}` : text },
          ];
          try {
            await savingUser;
            await deps.conversations.record(
              conversation,
              'assistant',
              answer,
              Boolean(failure),
              meterWriteCtes(db, write),
            );
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
