import { type inferenceLogs, storableText, type models, type providers } from '@atelier/db';
import type { ChatMessage, Consumption } from '@atelier/providers';
import { partsText } from '@atelier/schemas';

export type ModelRow = typeof models.$inferSelect;
export type ProviderRow = typeof providers.$inferSelect;
/** A model of a workspace with its provider: what a call runs on. */
export interface MeterTarget {
  model: ModelRow;
  provider: ProviderRow;
}

/** Who a call works for and where its log belongs (chatbot and conversation are null for invoke). */
export interface MeterScope {
  organizationId: string;
  workspaceId: string;
  userId: string | null;
  chatbotId: string | null;
  chatbotName: string;
  conversationId: string | null;
  /** False for metrics-only chatbots: the row keeps no prompt and no answer. */
  storeContent: boolean;
  /** The API key a public-API call came through (its name, kept on the log row). */
  apiKeyName?: string | null;
}

export interface InferenceLogInput {
  id: string;
  scope: MeterScope;
  target: MeterTarget;
  /** The whole request as text (for chat: the system prompt and every message). */
  prompt: string;
  /** The end user's part of it (for chat: the last user message). */
  userMessage: string;
  /** What the model produced, as text (a short description for binary outputs). */
  response: string;
  used: Consumption;
  firstTokenMs: number | null;
  totalMs: number;
  streamed: boolean;
  fallback: boolean;
  /** Why the call failed; null when it succeeded. */
  error: string | null;
  credits: number;
}

export type InferenceLogRow = typeof inferenceLogs.$inferInsert;

const words = (text: string) => (text.match(/\S+/g) ?? []).length;

/** A chat request as one text: `system: …` then `role: text` per message. */
export const chatPrompt = (system: string | undefined, messages: ChatMessage[]) =>
  [`system: ${system ?? ''}`, ...messages.map((m) => `${m.role}: ${partsText(m.content)}`)].join('\n');

/** The last user message's text, or ''. */
export const lastUserText = (messages: ChatMessage[]) => {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return last ? partsText(last.content) : '';
};

/**
 * The one builder of an inference-log row, for every call of every model type. Content is kept only
 * when the scope stores it; texts come from users and models, so they are made storable (NUL and lone
 * surrogates become U+FFFD).
 */
export function inferenceLogRow(input: InferenceLogInput): InferenceLogRow {
  const { scope, target } = input;
  const keep = scope.storeContent;
  return {
    id: input.id,
    organizationId: scope.organizationId,
    workspaceId: scope.workspaceId,
    chatbotId: scope.chatbotId,
    chatbotName: scope.chatbotName,
    conversationId: scope.conversationId,
    userId: scope.userId,
    apiKeyName: scope.apiKeyName ?? null,
    modelId: target.model.id,
    modelName: target.model.name,
    providerModelName: target.model.modelName,
    providerType: target.provider.kind,
    completePrompt: keep ? storableText(input.prompt) : '',
    userMessage: keep ? storableText(input.userMessage) : '',
    response: keep ? storableText(input.response) : '',
    requestWords: words(input.prompt),
    responseWords: words(input.response),
    inputTokens: input.used.inputTokens ?? 0,
    outputTokens: input.used.outputTokens ?? 0,
    firstTokenMs: input.firstTokenMs === null ? null : Math.round(input.firstTokenMs),
    totalMs: Math.round(input.totalMs),
    streamed: input.streamed,
    fallback: input.fallback,
    error: input.error !== null,
    errorMessage: storableText(input.error ?? ''),
    status: input.error !== null ? 'error' : 'success',
    credits: input.credits,
  };
}
