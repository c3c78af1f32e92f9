import type { Chatbot, Conversation, MessagePart } from '@atelier/schemas';
import { chatbotTypes, type ChatbotType, type MessageFeedback } from '@atelier/schemas/constants';
import { api, apiUrl, tokens } from '@/lib/api';
import { useAppStore } from '@/stores/app-store';
import { useChatStore } from './chat-store';
import { activeConversation } from './selectors';
import { thrownError, type ChatError } from './errors';
import type { AttachedImage } from './image-upload';
import { buildInputData, validateInputs } from './input-data';
import { fromHistory, messageText, titleFrom, toApiMessages } from './messages';
import {
  cancelRun,
  deleteConversation,
  fetchConversations,
  fetchHistory,
  messagePath,
  postConversation,
  putConversation,
  putFeedback,
} from './queries';
import { createStreamClient } from './stream-client';
import { flowStep, simpleStep, type StreamSink } from './stream-events';

export const chatStream = createStreamClient({ baseUrl: apiUrl, tokens, refresh: api.refresh });

const store = () => useChatStore.getState();
const authenticated = () => useAppStore.getState().user !== null && tokens.access() !== null;

/** The answer being streamed, if any, and the run that makes it (chatflows and workflows). */
let controller: AbortController | null = null;
let runningId: string | null = null;

/**
 * Stop: the stream ends quietly and the answer so far stays. A simple chat's server stops the model
 * call when the client leaves and keeps the partial answer; a flow's run goes on without its client,
 * so it is cancelled.
 */
export function stopStreaming() {
  controller?.abort();
  if (runningId) void cancelRun(runningId).catch(() => undefined);
  runningId = null;
}

export async function loadConversations(): Promise<void> {
  if (!authenticated()) return store().setError({ key: 'chatPage.errors.notAuthFetch' });
  try {
    const conversations = await fetchConversations();
    store().setConversations(conversations);
    const { activeId, draftAssistantId } = store();
    const first = conversations[0];
    if (activeId === null && draftAssistantId === null && first) await openConversation(first.id);
  } catch {
    store().setError({ key: 'chatPage.errors.fetchConversations' });
  }
}

async function loadHistory(id: string) {
  try {
    store().historyLoaded(id, fromHistory(await fetchHistory(id)));
  } catch {
    if (store().activeId === id) store().setError({ key: 'chatPage.errors.fetchHistory' });
  }
}

/** Switching: stops a running answer, clears the view, then loads the history. */
export async function openConversation(id: string) {
  if (id === store().activeId && store().draftAssistantId === null) return;
  stopStreaming();
  store().selectConversation(id);
  await loadHistory(id);
}

export function startDraft(assistantId: string) {
  stopStreaming();
  store().startDraft(assistantId);
}

async function createConversation(assistant: Chatbot, title: string): Promise<Conversation | null> {
  if (!authenticated()) {
    store().setError({ key: 'chatPage.errors.notAuthCreate' });
    return null;
  }
  try {
    const id = await postConversation({ title, chatbot_id: assistant.id });
    const conversation: Conversation = {
      id,
      title,
      chatbot_id: assistant.id,
      chatbot_type: assistant.type,
      updated_at: new Date().toISOString(),
      last_message_preview: '',
    };
    store().conversationCreated(conversation);
    return conversation;
  } catch {
    store().setError({ key: 'chatPage.errors.createConversation' });
    return null;
  }
}

export async function renameConversation(id: string, title: string): Promise<ChatError | null> {
  try {
    await putConversation(id, title);
    store().conversationRenamed(id, title);
    return null;
  } catch {
    return { key: 'chatPage.errors.renameConversation' };
  }
}

/** Deleting the active conversation activates the first remaining one (its history loads) or none. */
export async function removeConversation(id: string): Promise<ChatError | null> {
  try {
    await deleteConversation(id);
  } catch {
    return { key: 'chatPage.errors.deleteConversation' };
  }
  const wasActive = store().activeId === id;
  if (wasActive) stopStreaming();
  const next = store().conversationRemoved(id);
  if (wasActive && next) await loadHistory(next);
  return null;
}

async function runStream(conversationId: string, type: ChatbotType, body: unknown) {
  const ctl = new AbortController();
  controller = ctl;
  const live = () => !ctl.signal.aborted && store().activeId === conversationId;
  const sink: StreamSink = {
    runStarted: (id) => {
      if (!ctl.signal.aborted) runningId = id;
    },
    started: (id) => live() && store().messageStarted(id),
    text: (text) => live() && store().textReceived(text),
    sources: (sources) => live() && store().sourcesReceived(sources),
    output: (text) => live() && store().outputReceived(text),
    progress: (node) => live() && store().progressChanged(node),
  };
  const step = type === 'simple' ? simpleStep : flowStep;
  try {
    for await (const data of chatStream.stream(messagePath(conversationId, type), body, ctl.signal)) {
      if (step(data, sink) === 'done') break;
    }
  } catch (error) {
    const info = thrownError(error, type);
    if (info && live()) store().sendFailed(info);
    if (info?.key === 'chatPage.errors.sendFailed') console.error(error);
  } finally {
    if (controller === ctl) {
      controller = null;
      runningId = null;
    }
  }
  // Switched away meanwhile: that view was already cleared.
  if (store().activeId === conversationId) {
    store().sendFinished(conversationId, { stopped: ctl.signal.aborted });
    // A flow's answer is stored as its run ends: its id (to rate it) comes with the history.
    if (type !== 'simple' && !ctl.signal.aborted) await adoptIds(conversationId);
  }
}

async function adoptIds(conversationId: string) {
  try {
    const history = fromHistory(await fetchHistory(conversationId));
    if (store().activeId === conversationId && !store().loading) store().adoptStoredIds(history);
  } catch {
    // The answer shows as it is; rating it waits for the next load of the conversation.
  }
}

/** Thumbs up or down on a stored answer (again on the same one takes it back). */
export async function rateAnswer(messageId: string, rating: MessageFeedback): Promise<ChatError | null> {
  const conversationId = store().activeId;
  const before = store().messages.find((m) => m.id === messageId)?.feedback ?? null;
  if (!conversationId) return null;
  const next = before === rating ? null : rating;
  store().feedbackChanged(messageId, next);
  try {
    await putFeedback(conversationId, messageId, next);
    return null;
  } catch {
    store().feedbackChanged(messageId, before);
    return { key: 'chatExtras.errors.feedback' };
  }
}

async function sendParts(
  parts: MessagePart[],
  assistants: readonly Chatbot[],
  replaceLast = false,
): Promise<ChatError | null> {
  const state = store();
  if (state.loading) return null;
  const active = activeConversation(state);
  const assistant = active ? null : assistants.find((a) => a.id === state.draftAssistantId);
  if (!active && !assistant) return { key: 'chatPage.errors.needAssistant' };
  const type = active?.chatbot_type ?? assistant!.type;
  if (!(chatbotTypes as readonly string[]).includes(type)) {
    state.setError({ key: 'chatPage.errors.unsupportedType', params: { type } });
    return null;
  }
  const query = messageText({ parts });
  let inputData: Record<string, unknown> = {};
  if (type !== 'simple') {
    const errors = validateInputs(state.inputFields, state.inputValues);
    if (Object.keys(errors).length > 0) {
      state.setInputErrors(errors);
      return { key: 'chatPage.errors.checkInputs' };
    }
    inputData = await buildInputData(state.inputFields, state.inputValues);
  }
  const conversation = active ?? (await createConversation(assistant!, titleFrom(query)));
  if (!conversation) return null;
  if (replaceLast) {
    if (!active || !store().beginRegenerate()) return null;
  } else store().beginSend(parts);
  // Regenerate and Retry say so: the server then replaces the last answer and keeps the question once.
  const again = replaceLast ? { regenerate: true } : {};
  const body =
    type === 'simple'
      ? { messages: toApiMessages(store().messages), ...again }
      : { input_data: { ...inputData, query }, ...again };
  void runStream(conversation.id, type, body);
  return null;
}

/**
 * Sends a message: it needs text or an image, and an assistant (the active conversation's, or the
 * draft's, whose conversation is created first). Resolves once the answer started streaming, with
 * the problem to show in the composer if it could not be sent.
 */
export function send(text: string, images: readonly AttachedImage[], assistants: readonly Chatbot[]) {
  const trimmed = text.trim();
  if (!trimmed && images.length === 0) {
    return Promise.resolve<ChatError | null>({ key: 'chatPage.errors.needMessage' });
  }
  const parts: MessagePart[] = [
    ...(trimmed ? [{ type: 'text' as const, text: trimmed }] : []),
    ...images.map((image) => ({ type: 'image' as const, url: image.url })),
  ];
  return sendParts(parts, assistants);
}

/**
 * Regenerate the last answer, or Retry after a failure or a timeout: the last question again, its
 * answer replaced (here and on the server, which never stores the question twice).
 */
export async function regenerate(assistants: readonly Chatbot[]) {
  const state = store();
  const question = state.messages.findLast((m) => m.role === 'user');
  if (!question || state.loading) return;
  await sendParts(question.parts, assistants, true);
}

/** After a timeout or a failed answer: the last question again. */
export const retry = regenerate;
