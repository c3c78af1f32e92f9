import type { Conversation } from '@atelier/schemas';
import type { ChatState } from './chat-store';

/** Case-insensitive search in titles and previews. */
export const filterConversations = (conversations: Conversation[], query: string) => {
  const q = query.trim().toLowerCase();
  if (!q) return conversations;
  return conversations.filter(
    (c) => c.title.toLowerCase().includes(q) || c.last_message_preview.toLowerCase().includes(q),
  );
};

export const activeConversation = (state: ChatState) =>
  state.conversations.find((c) => c.id === state.activeId) ?? null;
