import type {
  ApiKey,
  Chatbot,
  ChatbotType,
  CreatedApiKey,
  ModelWithProvider,
  SimpleConfigBody,
  User,
} from '@atelier/schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { CHAT_MODEL_TYPES } from '@/lib/model-types';

export const chatbotsKey = (workspaceId: string) => ['chatbots', workspaceId] as const;
export const chatbotKey = (id: string) => ['chatbot', id] as const;
export const chatbotUsersKey = (id: string) => ['chatbot-users', id] as const;
export const apiKeysKey = (id: string) => ['api-keys', id] as const;

const q = encodeURIComponent;

export const useChatbots = (workspaceId: string) =>
  useQuery({
    queryKey: chatbotsKey(workspaceId),
    queryFn: async () =>
      (await api.get<{ chatbots: Chatbot[] }>(`/chatbots?workspace_id=${q(workspaceId)}`)).chatbots,
  });

export const useChatbot = (id: string) =>
  useQuery({
    queryKey: chatbotKey(id),
    queryFn: async () => (await api.get<{ chatbot: Chatbot }>(`/chatbots/${q(id)}`)).chatbot,
    retry: false,
  });

const chatTypesQuery = CHAT_MODEL_TYPES.map((ty) => `&model_types=${ty}`).join('');
/** The models a simple chatbot can answer with: the workspace's models of the chat types. */
export const useChatModels = (workspaceId: string | undefined) =>
  useQuery({
    queryKey: ['models', workspaceId, 'chat'],
    queryFn: async () =>
      (
        await api.get<{ models: ModelWithProvider[] }>(
          `/models_with_partial_server?workspace_id=${q(workspaceId ?? '')}${chatTypesQuery}`,
        )
      ).models,
    enabled: workspaceId !== undefined,
  });

export interface KnowledgeCollection {
  id: string;
  name: string;
}

/** Knowledge collections arrive with a later capability: until then this answers 404, shown as none. */
export const useKnowledgeCollections = (workspaceId: string | undefined) =>
  useQuery({
    queryKey: ['rag-collections', workspaceId],
    queryFn: async () =>
      (
        await api.get<{ rag_collections: KnowledgeCollection[] }>(
          `/rag_collections_all?workspace_id=${q(workspaceId ?? '')}`,
        )
      ).rag_collections,
    enabled: workspaceId !== undefined,
    retry: false,
  });

/** The organization's users; admins and creators see every chatbot anyway, so only 'user' needs access. */
export const useOrganizationUsers = (enabled: boolean) =>
  useQuery({
    queryKey: ['users'],
    queryFn: async () => (await api.get<{ users: User[] }>('/users')).users,
    enabled,
  });

export const useChatbotUsers = (id: string | null) =>
  useQuery({
    queryKey: chatbotUsersKey(id ?? ''),
    queryFn: async () => (await api.get<{ user_ids: string[] }>(`/chatbots/${q(id ?? '')}/users`)).user_ids,
    enabled: id !== null,
    staleTime: 0,
  });

export const createChatbot = (body: {
  workspace_id: string;
  name: string;
  description?: string;
  type: ChatbotType;
}) => api.post<{ id: string }>('/chatbots', body);
export const updateChatbot = (id: string, body: { name?: string; description?: string }) =>
  api.put(`/chatbots/${q(id)}`, body);
export const publishChatbot = (id: string) => api.post(`/chatbots/${q(id)}/publish`);
export const duplicateChatbot = (id: string) =>
  api.post<{ id: string }>('/chatbots/duplicate', { chatbot_id: id });
export const deleteChatbot = (id: string) => api.del(`/delete_chatbot/${q(id)}`);
export const saveSimpleConfig = (id: string, body: SimpleConfigBody) =>
  api.put(`/chatbots/${q(id)}/simple/config`, body);
export const grantAccess = (id: string, userId: string) =>
  api.post(`/chatbots/${q(id)}/users/${q(userId)}/grant`);
export const revokeAccess = (id: string, userId: string) =>
  api.del(`/chatbots/${q(id)}/users/${q(userId)}/revoke`);

export const useApiKeys = (chatbotId: string) =>
  useQuery({
    queryKey: apiKeysKey(chatbotId),
    queryFn: async () =>
      (await api.get<{ api_keys: ApiKey[] }>(`/chatbots/${q(chatbotId)}/api_keys`)).api_keys,
  });
export const createApiKey = (chatbotId: string, name: string) =>
  api.post<CreatedApiKey>(`/chatbots/${q(chatbotId)}/api_keys`, { name });
export const revokeApiKey = (chatbotId: string, keyId: string) =>
  api.del(`/chatbots/${q(chatbotId)}/api_keys/${q(keyId)}`);

/** The input fields a chatflow or workflow asks for (their names fill the guide's snippets). */
export const useInputFieldNames = (chatbotId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['input-fields', chatbotId],
    queryFn: async () =>
      (
        await api.get<{ input_fields: { name: string }[] }>(
          `/chat-interface/chatbots/${q(chatbotId)}/input-fields`,
        )
      ).input_fields.map((f) => f.name),
    enabled,
    retry: false,
  });
