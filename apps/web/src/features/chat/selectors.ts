import type { Chatbot, Conversation } from '@atelier/schemas';
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

/** The assistants by workspace (named as the server gives it), workspaces and assistants by name. */
export function groupByWorkspace(
  assistants: readonly Chatbot[],
  unnamed: string,
): { name: string; assistants: Chatbot[] }[] {
  const groups = new Map<string, Chatbot[]>();
  for (const assistant of assistants) {
    const name = assistant.workspace_name || unnamed;
    groups.set(name, [...(groups.get(name) ?? []), assistant]);
  }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, list]) => ({ name, assistants: list.sort((a, b) => a.name.localeCompare(b.name)) }));
}
