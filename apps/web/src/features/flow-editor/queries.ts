import type { FlowChatbotType } from '@atelier/schemas/constants';
import type { Chatbot, ModelWithProvider } from '@atelier/schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { isNotFoundError } from '@/features/studio/logic';
import type { SavedConfiguration } from './serialize';

const q = encodeURIComponent;

/** Spec section 8, "Flow": the editor's own error texts. */
export const FLOW_ERRORS = {
  fetchModels: 'Failed to fetch gen models',
  fetchConfig: 'Failed to fetch flow configuration',
  save: 'Failed to save flow configuration',
  publish: 'Failed to publish flow',
  invalidType: 'Invalid chatbot type',
  saveNothing: 'Chatbot or config is null',
  publishNothing: 'Chatbot is null',
} as const;

export class FlowLoadError extends Error {
  constructor(
    message: string,
    readonly kind: 'not_found' | 'invalid_type' | 'failed',
  ) {
    super(message);
  }
}

/**
 * Spec section 4: load fetches the chatbot, then its config by type; any other type than the editor's
 * gives 'Invalid chatbot type'. An empty configuration stands in when none is returned.
 */
export async function loadFlow(
  chatbotId: string,
  type: FlowChatbotType,
): Promise<{ chatbot: Chatbot; configuration: unknown }> {
  let chatbot: Chatbot;
  try {
    chatbot = (await api.get<{ chatbot: Chatbot }>(`/chatbots/${q(chatbotId)}`)).chatbot;
  } catch (error) {
    if (isNotFoundError(error)) throw new FlowLoadError('not found', 'not_found');
    throw new FlowLoadError(FLOW_ERRORS.fetchConfig, 'failed');
  }
  if (chatbot.type !== type) throw new FlowLoadError(FLOW_ERRORS.invalidType, 'invalid_type');
  try {
    const { config } = await api.get<{ config: { configuration?: unknown } | null }>(
      `/chatbots/${q(chatbotId)}/config`,
    );
    return { chatbot, configuration: config?.configuration ?? { nodes: [], edges: [] } };
  } catch (error) {
    if (isNotFoundError(error)) throw new FlowLoadError('not found', 'not_found');
    throw new FlowLoadError(FLOW_ERRORS.fetchConfig, 'failed');
  }
}

/** Chatflows and workflows both save through the chatflow path (spec section 7). */
export const saveFlow = (chatbotId: string, configuration: SavedConfiguration) =>
  api.put<{ message: string }>(`/chatbots/${q(chatbotId)}/chatflow/config`, { configuration });

export const publishFlow = (chatbotId: string) =>
  api.post<{ message: string }>(`/chatbots/${q(chatbotId)}/publish`);

/** Every model of the workspace, once; each picker filters by the type its field asks for. */
export const useWorkspaceModels = (workspaceId: string | null) =>
  useQuery({
    queryKey: ['models', workspaceId, 'all'],
    queryFn: async () =>
      (
        await api.get<{ models: ModelWithProvider[] }>(
          `/models_with_partial_server?workspace_id=${q(workspaceId ?? '')}`,
        )
      ).models,
    enabled: workspaceId !== null,
  });

export interface NamedItem {
  id: string;
  name: string;
}

/**
 * Collections and connectors arrive with the knowledge capability: until their calls exist this answers an
 * error and the picker falls back to typing an id.
 */
export const useNamedItems = (kind: 'collection' | 'connector', workspaceId: string | null) =>
  useQuery({
    queryKey: [kind === 'collection' ? 'rag-collections' : 'connectors', workspaceId],
    queryFn: async (): Promise<NamedItem[]> => {
      if (kind === 'collection') {
        return (
          await api.get<{ rag_collections: NamedItem[] }>(
            `/rag_collections_all?workspace_id=${q(workspaceId ?? '')}`,
          )
        ).rag_collections;
      }
      return (await api.get<{ connectors: NamedItem[] }>(`/connectors?workspace_id=${q(workspaceId ?? '')}`))
        .connectors;
    },
    enabled: workspaceId !== null,
    retry: false,
  });
