import type { Chatbot, ChatbotType, Conversation } from '@atelier/schemas';
import type { MessageFeedback } from '@atelier/schemas/constants';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { InputField } from './input-fields';
import type { HistoryMessage } from './messages';

export const assistantsKey = ['chat', 'assistants'] as const;

/** The published assistants this user may chat with. */
export const useAssistants = () =>
  useQuery({
    queryKey: assistantsKey,
    queryFn: async () => (await api.get<{ chatbots: Chatbot[] }>('/chatbots_for_user')).chatbots,
  });

/** Only chatflows and workflows take additional inputs; simple assistants ask nothing. */
export const useInputFields = (chatbotId: string | null, type: ChatbotType | null) =>
  useQuery({
    queryKey: ['chat', 'input-fields', chatbotId],
    queryFn: async () =>
      (
        await api.get<{ has_additional_inputs: boolean; input_fields: InputField[] }>(
          `/chat-interface/chatbots/${chatbotId}/input-fields`,
        )
      ).input_fields,
    enabled: chatbotId !== null && type !== null && type !== 'simple',
    retry: false,
  });

export const fetchConversations = async () =>
  (await api.get<{ conversations: Conversation[] }>('/chat-interface/conversations')).conversations;

export const fetchHistory = async (id: string) =>
  (await api.get<{ history: HistoryMessage[] }>(`/chat-interface/conversations/${id}/history`)).history;

export const postConversation = async (body: { title: string; chatbot_id: string }) =>
  (await api.post<{ conversation_id: string }>('/chat-interface/conversations', body)).conversation_id;

export const putConversation = (id: string, title: string) =>
  api.put<{ message: string }>(`/chat-interface/conversations/${id}`, { title });

export const deleteConversation = (id: string) =>
  api.del<{ message: string }>(`/chat-interface/conversations/${id}`);

export const messagePath = (id: string, type: ChatbotType) =>
  `/chat-interface/conversations/${id}/${type}/message`;

export const putFeedback = (conversationId: string, messageId: string, rating: MessageFeedback | null) =>
  api.put<{ message: string }>(
    `/chat-interface/conversations/${conversationId}/messages/${messageId}/feedback`,
    { rating },
  );

/** Stop for a chatflow or workflow: its run goes on without a client unless it is cancelled. */
export const cancelRun = (runId: string) => api.post<{ status: string }>(`/runs/${runId}/cancel`);
