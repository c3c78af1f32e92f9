import type {
  ModelPricing,
  ModelType,
  ModelWithProvider,
  Provider,
  ProviderKindInfo,
} from '@atelier/schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { RemoteModel } from './import-logic';

export const providersKey = (workspaceId: string) => ['providers', workspaceId] as const;
export const modelsKey = (workspaceId: string) => ['models', workspaceId] as const;

export const useProviderKinds = () =>
  useQuery({
    queryKey: ['provider-kinds'],
    queryFn: async () => (await api.get<{ kinds: ProviderKindInfo[] }>('/providers/kinds')).kinds,
    staleTime: Infinity,
  });

export const useProviders = (workspaceId: string) =>
  useQuery({
    queryKey: providersKey(workspaceId),
    queryFn: async () =>
      (await api.get<{ providers: Provider[] }>(`/providers?workspace_id=${encodeURIComponent(workspaceId)}`))
        .providers,
  });

export const useModels = (workspaceId: string) =>
  useQuery({
    queryKey: modelsKey(workspaceId),
    queryFn: async () =>
      (
        await api.get<{ models: ModelWithProvider[] }>(
          `/models_with_partial_server?workspace_id=${encodeURIComponent(workspaceId)}`,
        )
      ).models,
  });

/** What the provider itself offers; asked fresh each time the import dialog opens on it. */
export const useRemoteModels = (providerId: string | null) =>
  useQuery({
    queryKey: ['remote-models', providerId],
    queryFn: async () =>
      (await api.get<{ models: RemoteModel[] }>(`/providers/${providerId}/remote-models`)).models,
    enabled: providerId !== null,
    staleTime: 0,
    retry: false,
  });

export interface CreateProvider {
  workspace_id: string;
  name: string;
  kind: string;
  base_url?: string;
  api_key?: string;
  settings?: Record<string, string>;
}
export interface UpdateProvider {
  name?: string;
  base_url?: string | null;
  api_key?: string;
  settings?: Record<string, string>;
}

export const createProvider = (body: CreateProvider) => api.post<{ provider_id: string }>('/providers', body);
export const updateProvider = (id: string, body: UpdateProvider) => api.put(`/providers/${id}`, body);
export const deleteProvider = (id: string) => api.del(`/providers/${id}`);
export const testProvider = (id: string) =>
  api.post<{ ok: boolean; detail: string; latency_ms: number }>(`/providers/${id}/test`);

export interface ModelBody {
  name?: string;
  model_name: string;
  model_type: ModelType;
  description?: string;
  pricing?: Partial<ModelPricing>;
}

export const createModel = (body: ModelBody & { workspace_id: string; provider_id: string }) =>
  api.post<{ model_id: string }>('/models', body);
export const updateModel = (id: string, body: Partial<ModelBody>) => api.put(`/models/${id}`, body);
export const deleteModel = (id: string) => api.del(`/models/${id}`);
