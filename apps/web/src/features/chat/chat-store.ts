import type { AnswerSource, Conversation, MessagePart } from '@atelier/schemas';
import type { MessageFeedback } from '@atelier/schemas/constants';
import { create } from 'zustand';
import type { ChatError } from './errors';
import type { InputErrors } from './input-data';
import { defaultValues, type InputField, type InputValue } from './input-fields';
import { messageText, type ChatMessage } from './messages';

interface ChatData {
  /** Most recent first. */
  conversations: Conversation[];
  activeId: string | null;
  /** The assistant of a conversation not created yet (its first message creates it). */
  draftAssistantId: string | null;
  messages: ChatMessage[];
  /** A message is being sent or its answer streamed. */
  loading: boolean;
  error: ChatError | null;
  /** The timeout notice (with Retry); cleared by new content or a new send. */
  timeout: ChatError | null;
  inputFields: InputField[];
  inputValues: Record<string, InputValue>;
  inputErrors: InputErrors;
}

export interface ChatState extends ChatData {
  setConversations(conversations: Conversation[]): void;
  conversationCreated(conversation: Conversation): void;
  selectConversation(id: string | null): void;
  startDraft(assistantId: string): void;
  conversationRenamed(id: string, title: string): void;
  /** Returns the conversation active afterwards. */
  conversationRemoved(id: string): string | null;
  historyLoaded(conversationId: string, messages: ChatMessage[]): void;
  beginSend(parts: MessagePart[]): void;
  /**
   * Regenerate or Retry: the last question is asked again, its answer (done, failed or missing) is
   * replaced by a new placeholder. Returns the question's parts, or null when there is none.
   */
  beginRegenerate(): MessagePart[] | null;
  /** The ids the server gave the last question and answer (and their ratings), once stored. */
  adoptStoredIds(history: readonly ChatMessage[]): void;
  /** A rating changed (optimistically, or back after a failure). */
  feedbackChanged(messageId: string, feedback: MessageFeedback | null): void;
  messageStarted(messageId: string): void;
  textReceived(text: string): void;
  /** The passages the answer draws on, shown under it. */
  sourcesReceived(sources: AnswerSource[]): void;
  outputReceived(text: string | null): void;
  progressChanged(node: string | null): void;
  sendFailed(error: ChatError): void;
  sendFinished(conversationId: string, options?: { stopped?: boolean; now?: Date }): void;
  setError(error: ChatError | null): void;
  dismissTimeout(): void;
  setInputFields(fields: InputField[]): void;
  setInputValue(name: string, value: InputValue): void;
  setInputErrors(errors: InputErrors): void;
  clearInputs(): void;
  /** Back to the empty state (the page opens afresh, perhaps for another user). */
  reset(): void;
}

const initial: ChatData = {
  conversations: [],
  activeId: null,
  draftAssistantId: null,
  messages: [],
  loading: false,
  error: null,
  timeout: null,
  inputFields: [],
  inputValues: {},
  inputErrors: {},
};

let localIds = 0;
const localId = (prefix: string) => `${prefix}-${++localIds}`;

/** Applies `change` to the last assistant message. */
const sourceParts = (m: ChatMessage): MessagePart[] => m.parts.filter((p) => p.type === 'sources');

function updateLastAssistant(messages: ChatMessage[], change: (m: ChatMessage) => ChatMessage | null) {
  const index = messages.findLastIndex((m) => m.role === 'assistant');
  if (index === -1) return messages;
  const next = change(messages[index]!);
  return next ? messages.with(index, next) : messages.toSpliced(index, 1);
}

const settleUser = (messages: ChatMessage[]) =>
  messages.map((m) => (m.role === 'user' && m.state === 'sending' ? { ...m, state: 'sent' as const } : m));

const sameFields = (a: readonly InputField[], b: readonly InputField[]) =>
  a.length === b.length && a.every((f, i) => f.name === b[i]!.name && f.type === b[i]!.type);

export const useChatStore = create<ChatState>()((set, get) => {
  /** What switching conversation resets: messages, error, timeout and additional inputs. */
  const cleared = () => ({
    messages: [],
    loading: false,
    error: null,
    timeout: null,
    inputValues: defaultValues(get().inputFields),
    inputErrors: {},
  });
  return {
    ...initial,
    reset: () => set(initial),
    setConversations: (conversations) => set({ conversations }),
    // The draft's additional inputs stay: they go with its first message.
    conversationCreated: (conversation) =>
      set({
        conversations: [conversation, ...get().conversations.filter((c) => c.id !== conversation.id)],
        activeId: conversation.id,
        draftAssistantId: null,
        messages: [],
        error: null,
        timeout: null,
      }),
    selectConversation: (id) => {
      if (id === get().activeId && get().draftAssistantId === null) return;
      set({ activeId: id, draftAssistantId: null, ...cleared() });
    },
    startDraft: (assistantId) => set({ activeId: null, draftAssistantId: assistantId, ...cleared() }),
    conversationRenamed: (id, title) =>
      set({ conversations: get().conversations.map((c) => (c.id === id ? { ...c, title } : c)) }),
    conversationRemoved: (id) => {
      const conversations = get().conversations.filter((c) => c.id !== id);
      if (get().activeId !== id) {
        set({ conversations });
        return get().activeId;
      }
      const next = conversations[0]?.id ?? null;
      set({ conversations, activeId: next, ...cleared() });
      return next;
    },
    historyLoaded: (conversationId, messages) => {
      const state = get();
      if (state.activeId !== conversationId || state.loading) return;
      // Replaced only if the history has messages or there are none yet.
      if (messages.length > 0 || state.messages.length === 0) set({ messages });
    },
    beginSend: (parts) =>
      set({
        messages: [
          ...get().messages,
          { id: localId('user'), role: 'user', parts, state: 'sending' },
          { id: localId('assistant'), role: 'assistant', parts: [], state: 'thinking' },
        ],
        loading: true,
        error: null,
        timeout: null,
      }),
    beginRegenerate: () => {
      const messages = get().messages;
      const index = messages.findLastIndex((m) => m.role === 'user');
      if (index === -1 || get().loading) return null;
      const question = messages[index]!;
      set({
        messages: [
          ...messages.slice(0, index),
          { ...question, state: 'sending' },
          { id: localId('assistant'), role: 'assistant', parts: [], state: 'thinking' },
        ],
        loading: true,
        error: null,
        timeout: null,
      });
      return question.parts;
    },
    adoptStoredIds: (history) => {
      const messages = [...get().messages];
      for (const role of ['user', 'assistant'] as const) {
        const local = messages.findLastIndex((m) => m.role === role);
        const stored = history.findLast((m) => m.role === role);
        if (local === -1 || !stored) continue;
        messages[local] = { ...messages[local]!, id: stored.id, feedback: stored.feedback ?? null };
      }
      set({ messages });
    },
    feedbackChanged: (messageId, feedback) =>
      set({ messages: get().messages.map((m) => (m.id === messageId ? { ...m, feedback } : m)) }),
    messageStarted: (messageId) =>
      set({
        messages: updateLastAssistant(settleUser(get().messages), (m) => ({ ...m, id: messageId || m.id })),
      }),
    textReceived: (text) =>
      set({
        timeout: null,
        messages: updateLastAssistant(settleUser(get().messages), (m) => ({
          ...m,
          parts: [{ type: 'text', text: messageText(m) + text }, ...sourceParts(m)],
          state: 'streaming',
          progress: null,
        })),
      }),
    sourcesReceived: (sources) =>
      set({
        messages: updateLastAssistant(get().messages, (m) => ({
          ...m,
          parts: [...m.parts.filter((p) => p.type !== 'sources'), { type: 'sources', sources }],
        })),
      }),
    outputReceived: (text) =>
      set({
        timeout: null,
        messages: updateLastAssistant(settleUser(get().messages), (m) => ({
          ...m,
          parts: [{ type: 'text', text: text ?? '' }, ...sourceParts(m)],
          state: 'done',
          progress: null,
          emptyOutput: text === null,
        })),
      }),
    progressChanged: (progress) =>
      set({ messages: updateLastAssistant(settleUser(get().messages), (m) => ({ ...m, progress })) }),
    sendFailed: (error) =>
      set({
        timeout: error.timeout ? error : get().timeout,
        messages: updateLastAssistant(settleUser(get().messages), (m) => ({
          ...m,
          state: error.timeout ? 'timedOut' : 'error',
          isError: true,
          error,
          progress: null,
        })),
      }),
    sendFinished: (conversationId, { stopped = false, now = new Date() } = {}) => {
      const messages = updateLastAssistant(settleUser(get().messages), (m) => {
        if (m.state !== 'thinking' && m.state !== 'streaming') return m;
        const empty = messageText(m) === '';
        if (empty && stopped) return null;
        return { ...m, state: 'done', progress: null, ...(empty ? { emptyOutput: true } : {}) };
      });
      const last = messages.at(-1);
      const conversation = get().conversations.find((c) => c.id === conversationId);
      const moved = conversation && {
        ...conversation,
        updated_at: now.toISOString(),
        last_message_preview: last ? messageText(last) : conversation.last_message_preview,
      };
      set({
        loading: false,
        messages: get().activeId === conversationId ? messages : get().messages,
        conversations: moved
          ? [moved, ...get().conversations.filter((c) => c.id !== conversationId)]
          : get().conversations,
      });
    },
    setError: (error) => set({ error }),
    dismissTimeout: () => set({ timeout: null }),
    setInputFields: (fields) => {
      if (sameFields(fields, get().inputFields)) return;
      set({ inputFields: fields, inputValues: defaultValues(fields), inputErrors: {} });
    },
    setInputValue: (name, value) => {
      const { [name]: _old, ...inputErrors } = get().inputErrors;
      set({ inputValues: { ...get().inputValues, [name]: value }, inputErrors });
    },
    setInputErrors: (inputErrors) => set({ inputErrors }),
    clearInputs: () => set({ inputValues: defaultValues(get().inputFields), inputErrors: {} }),
  };
});
