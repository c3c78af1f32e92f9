import { inferenceLogs, type Db } from '@atelier/db';
import type { ChatMessage, ChatResult } from '@atelier/providers';
import { creditsFor } from '@atelier/providers';
import { pricingOf, type ModelTarget } from '../models/model-access';
import { storableText } from '../storable';
import type { RunScope } from './engine-services';

export interface CallLog {
  scope: RunScope;
  target: ModelTarget;
  system: string | undefined;
  messages: ChatMessage[];
  started: number;
  streamed: boolean;
  fallback?: boolean;
  result?: ChatResult;
  firstTokenMs?: number | null;
  error?: string;
}

const words = (text: string) => (text.match(/\S+/g) ?? []).length;
const textOf = (m: ChatMessage) =>
  typeof m.content === 'string'
    ? m.content
    : m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(' ');

/**
 * One inference-log row per model call of a flow, like the simple chat's; content only when kept. The
 * texts come from nodes and models, so they are made storable (NUL and lone surrogates become U+FFFD).
 */
export async function logModelCall(db: Db, log: CallLog): Promise<void> {
  const { scope, target } = log;
  const prompt = [`system: ${log.system ?? ''}`, ...log.messages.map((m) => `${m.role}: ${textOf(m)}`)].join(
    '\n',
  );
  const lastUser = [...log.messages].reverse().find((m) => m.role === 'user');
  const response = log.result?.text ?? '';
  const keep = scope.storeContent;
  await db.insert(inferenceLogs).values({
    organizationId: scope.organizationId,
    workspaceId: scope.workspaceId,
    chatbotId: scope.chatbotId,
    chatbotName: scope.chatbotName,
    conversationId: scope.conversationId,
    userId: scope.userId,
    modelId: target.model.id,
    modelName: target.model.name,
    providerModelName: target.model.modelName,
    providerType: target.provider.kind,
    completePrompt: keep ? storableText(prompt) : '',
    userMessage: keep && lastUser ? storableText(textOf(lastUser)) : '',
    response: keep ? storableText(response) : '',
    requestWords: words(prompt),
    responseWords: words(response),
    inputTokens: log.result?.usage.inputTokens ?? 0,
    outputTokens: log.result?.usage.outputTokens ?? 0,
    firstTokenMs: log.firstTokenMs == null ? null : Math.round(log.firstTokenMs),
    totalMs: Math.round(performance.now() - log.started),
    streamed: log.streamed,
    fallback: log.fallback ?? false,
    error: Boolean(log.error),
    errorMessage: storableText(log.error ?? ''),
    status: log.error ? 'error' : 'success',
    credits: log.result ? creditsFor(pricingOf(target.model), log.result.usage) : 0,
  });
}
