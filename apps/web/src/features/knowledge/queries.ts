import type {
  AddWebDocumentsBody,
  CollectionMetadata,
  Connector,
  ConnectorCollection,
  CreateConnectorBody,
  CreateRagCollectionBody,
  CreateToolBody,
  DocumentChunksAnswer,
  DocumentMetadata,
  MetadataField,
  ModelWithProvider,
  PreviewRow,
  QueryCollectionAnswer,
  QueryCollectionBody,
  RagCollection,
  RagDocument,
  SupportedConnector,
  Tool,
  ToolTypeInfo,
  UpdateConnectorBody,
  UpdateRagCollectionBody,
  UpdateRagDocumentsBody,
  UpdateToolBody,
} from '@atelier/schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

const q = encodeURIComponent;

/** Shared with the studio's and the flow editor's pickers, so one invalidation refreshes them all. */
export const collectionsKey = (workspaceId: string) => ['rag-collections', workspaceId] as const;
export const connectorsKey = (workspaceId: string) => ['connectors', workspaceId] as const;
export const toolsKey = (workspaceId: string) => ['tools', workspaceId] as const;
export const collectionKey = (id: string) => ['rag-collection', id] as const;
export const documentsKey = (id: string) => ['rag-documents', id] as const;
export const metadataFieldsKey = (id: string) => ['rag-metadata-fields', id] as const;

export const useRagCollections = (workspaceId: string) =>
  useQuery({
    queryKey: collectionsKey(workspaceId),
    queryFn: async () =>
      (
        await api.get<{ rag_collections: RagCollection[] }>(
          `/rag_collections_all?workspace_id=${q(workspaceId)}`,
        )
      ).rag_collections,
  });

export const useRagCollection = (id: string) =>
  useQuery({
    queryKey: collectionKey(id),
    queryFn: async () =>
      (await api.get<{ rag_collection: RagCollection }>(`/rag_collections/${q(id)}`)).rag_collection,
    retry: false,
  });

export const useSupportedConnectors = () =>
  useQuery({
    queryKey: ['supported-connectors'],
    queryFn: async () =>
      (await api.get<{ connectors: SupportedConnector[] }>('/supported_connectors')).connectors,
    staleTime: Infinity,
  });

export const fetchConnectors = async (workspaceId: string) =>
  (await api.get<{ connectors: Connector[] }>(`/connectors?workspace_id=${q(workspaceId)}`)).connectors;

export const useConnectors = (workspaceId: string) =>
  useQuery({ queryKey: connectorsKey(workspaceId), queryFn: () => fetchConnectors(workspaceId) });

export const useTools = (workspaceId: string | null) =>
  useQuery({
    queryKey: toolsKey(workspaceId ?? ''),
    queryFn: async () =>
      (await api.get<{ data: Tool[] }>(`/tools?workspace_id=${q(workspaceId ?? '')}`)).data,
    enabled: workspaceId !== null,
  });

export const useToolTypes = () =>
  useQuery({
    queryKey: ['tool-types'],
    queryFn: async () => (await api.get<{ data: ToolTypeInfo[] }>('/tools/types')).data,
    staleTime: Infinity,
  });

export const fetchEmbeddingModels = async (workspaceId: string) =>
  (await api.get<{ models: ModelWithProvider[] }>(`/models_embeddings?workspace_id=${q(workspaceId)}`))
    .models;

const fetchModelsOfType = async (workspaceId: string, type: 'rerank' | 'ocr') =>
  (
    await api.get<{ models: ModelWithProvider[] }>(
      `/models_with_partial_server?workspace_id=${q(workspaceId)}&model_types=${type}`,
    )
  ).models;
export const fetchRerankModels = (workspaceId: string) => fetchModelsOfType(workspaceId, 'rerank');
export const fetchOcrModels = (workspaceId: string) => fetchModelsOfType(workspaceId, 'ocr');

export const useEmbeddingModels = (workspaceId: string) =>
  useQuery({
    queryKey: ['models', workspaceId, 'text-embeddings'],
    queryFn: () => fetchEmbeddingModels(workspaceId),
  });

const connectorPath = (connectorId: string, name: string) =>
  `/connectors/${q(connectorId)}/collections/${q(name)}`;

export const useConnectorCollections = (connectorId: string | null) =>
  useQuery({
    queryKey: ['connector-collections', connectorId],
    queryFn: async () =>
      (
        await api.get<{ collections: ConnectorCollection[] }>(
          `/connectors/${q(connectorId ?? '')}/collections`,
        )
      ).collections,
    enabled: connectorId !== null,
    retry: false,
  });

export const useCollectionMetadata = (connectorId: string | null, name: string | null) =>
  useQuery({
    queryKey: ['connector-collection-metadata', connectorId, name],
    queryFn: () => api.get<CollectionMetadata>(`${connectorPath(connectorId ?? '', name ?? '')}/metadata`),
    enabled: connectorId !== null && name !== null,
    retry: false,
  });

export interface PreviewPage {
  rows: PreviewRow[];
  limit: number;
  offset: number;
}
export const fetchPreview = (connectorId: string, name: string, limit: number, offset: number) =>
  api.get<PreviewPage>(`${connectorPath(connectorId, name)}/preview?limit=${limit}&offset=${offset}`);

/** How many of a document's chunks the chunks dialog shows at once. */
export const CHUNKS_PAGE = 20;

/** A page of a document's chunks, in order. */
export const useDocumentChunks = (collectionId: string, documentId: string | null, offset: number) =>
  useQuery({
    queryKey: ['rag-document-chunks', collectionId, documentId, offset],
    queryFn: () =>
      api.get<DocumentChunksAnswer>(
        `/rag_collections/${q(collectionId)}/documents/${q(documentId ?? '')}/chunks?limit=${CHUNKS_PAGE}&offset=${offset}`,
      ),
    enabled: documentId !== null,
    // The page before stays shown while the next one loads (another document's never does).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === documentId ? previous : undefined,
  });

/** Polled every 2 s while a document is queued or processing. */
export const useDocuments = (collectionId: string) =>
  useQuery({
    queryKey: documentsKey(collectionId),
    queryFn: async () =>
      (await api.get<{ documents: RagDocument[] }>(`/rag_collections/${q(collectionId)}/documents`))
        .documents,
    refetchInterval: (query) => (isIngesting(query.state.data) ? 2000 : false),
  });

/** The fields the collection's documents have, with their frequent values: what editors and filters offer. */
export const useMetadataFields = (collectionId: string) =>
  useQuery({
    queryKey: metadataFieldsKey(collectionId),
    queryFn: async () =>
      (await api.get<{ fields: MetadataField[] }>(`/rag_collections/${q(collectionId)}/metadata_fields`))
        .fields,
  });

export const isIngesting = (documents: RagDocument[] | undefined) =>
  (documents ?? []).some((d) => d.status === 'queued' || d.status === 'processing');

export const createConnector = (body: CreateConnectorBody) => api.post<{ id: string }>('/connectors', body);
export const updateConnector = (id: string, body: UpdateConnectorBody) =>
  api.put<{ connector: Connector }>(`/connectors/${q(id)}`, body);
export const deleteConnector = (id: string) => api.del(`/connectors/${q(id)}`);
export const testConnector = (id: string) =>
  api.post<{ ok: boolean; detail: string; collections: number }>(`/connectors/${q(id)}/test`);

export const createRagCollection = (body: CreateRagCollectionBody) =>
  api.post<{ id: string }>('/rag_collections', body);
export const updateRagCollection = (id: string, body: UpdateRagCollectionBody) =>
  api.put<{ rag_collection: RagCollection }>(`/rag_collections/${q(id)}`, body);
export const deleteRagCollection = (id: string) => api.del(`/rag_collections/${q(id)}`);
export const queryCollection = (id: string, body: QueryCollectionBody) =>
  api.post<QueryCollectionAnswer>(`/rag_collections/${q(id)}/query`, body);
export const addWebPages = (collectionId: string, body: AddWebDocumentsBody) =>
  api.post<{ documents: RagDocument[] }>(`/rag_collections/${q(collectionId)}/documents/web`, body);
export const deleteDocument = (collectionId: string, documentId: string) =>
  api.del(`/rag_collections/${q(collectionId)}/documents/${q(documentId)}`);
export const updateDocumentsMetadata = (collectionId: string, body: UpdateRagDocumentsBody) =>
  api.patch<{ documents: RagDocument[] }>(`/rag_collections/${q(collectionId)}/documents`, body);
export const updateDocumentMetadata = (
  collectionId: string,
  documentId: string,
  metadata: DocumentMetadata,
) =>
  api.patch<{ document: RagDocument }>(`/rag_collections/${q(collectionId)}/documents/${q(documentId)}`, {
    metadata,
  });

export const createTool = (body: CreateToolBody) => api.post<{ tool_id: string }>('/tools', body);
export const updateTool = (id: string, body: UpdateToolBody) =>
  api.put<{ data: Tool }>(`/tools/${q(id)}`, body);
export const deleteTool = (id: string) => api.del(`/tools/${q(id)}`);
