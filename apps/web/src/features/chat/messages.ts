import type { AnswerSource, InputPart, MessagePart, SimpleMessageBody } from '@atelier/schemas';
import { partsText } from '@atelier/schemas/message-text';
import type { MessageFeedback, MessageRole } from '@atelier/schemas/constants';
import type { ChatError } from './errors';

/**
 * sending: the user's message is on its way; thinking: the assistant placeholder before its first
 * chunk; streaming: chunks arriving; timedOut and error: the answer failed (the message says why).
 */
export type MessageState = 'sending' | 'sent' | 'thinking' | 'streaming' | 'done' | 'timedOut' | 'error';

export interface ChatMessage {
  id: string;
  role: MessageRole;
  parts: MessagePart[];
  state: MessageState;
  /** Flagged as an error: from the stream (with the reason) or stored so in the history. */
  isError?: boolean;
  error?: ChatError;
  /** The workflow step under way while the assistant thinks. */
  progress?: string | null;
  /** A workflow completed without any content. */
  emptyOutput?: boolean;
  /** The person's thumbs up or down (answers stored on the server only). */
  feedback?: MessageFeedback | null;
  /** When it was stored (history), for its time under the bubble. */
  createdAt?: string;
}

export interface HistoryMessage {
  id: string;
  role: MessageRole;
  content: MessagePart[];
  error: boolean;
  feedback?: MessageFeedback | null;
  created_at: string;
}

export const fromHistory = (history: readonly HistoryMessage[]): ChatMessage[] =>
  history.map((m) => ({
    id: m.id,
    role: m.role,
    parts: m.content,
    state: m.role === 'user' ? 'sent' : 'done',
    isError: m.error,
    feedback: m.feedback ?? null,
    createdAt: m.created_at,
  }));

export const messageText = (message: Pick<ChatMessage, 'parts'>): string => partsText(message.parts, '\n');

export const messageImages = (message: Pick<ChatMessage, 'parts'>): string[] =>
  message.parts.flatMap((p) => (p.type === 'image' ? [p.url] : []));

export const messageSources = (message: Pick<ChatMessage, 'parts'>): AnswerSource[] =>
  message.parts.flatMap((p) => (p.type === 'sources' ? p.sources : []));

/** A single text part travels as plain text, anything else as the parts list (sources stay here). */
export const toContent = (parts: MessagePart[]): string | InputPart[] => {
  const sent = parts.filter((p): p is InputPart => p.type !== 'sources');
  return sent.length === 1 && sent[0]!.type === 'text' ? sent[0]!.text : sent;
};

/**
 * The conversation so far for the simple chat endpoint: every user message and every assistant
 * answer that has content, leaving out failed ones and the placeholder of the answer to come.
 */
export function toApiMessages(messages: readonly ChatMessage[]): SimpleMessageBody['messages'] {
  return messages
    .filter((m) => !m.isError && !m.emptyOutput && (m.role === 'user' || messageText(m).trim() !== ''))
    .map((m) => ({ role: m.role, content: toContent(m.parts) }));
}

/** A title from the message's first line, cut near 60 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  if (line.length <= 60) return line;
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(' ');
  return `${(space > 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * A preview of a message on one line, cut at a word boundary near `max` characters (never inside a
 * word, unless a single word is longer than that).
 */
export function previewOf(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 3 ? cut.slice(0, space) : line.slice(0, max)).replace(/[\s.,;:!?-]+$/, '')}…`;
}
