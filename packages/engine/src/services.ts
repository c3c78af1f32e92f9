import type { ChatMessage, ToolCall, ToolDefinition, Usage } from '@atelier/providers';
import type { FlowDocument } from '@atelier/schemas';

/**
 * What the engine asks of its host. The API implements it with the model providers, the SSRF-guarded
 * HTTP client and (when present) the knowledge package; tests pass stubs. Every call receives the
 * node's AbortSignal and must stop when it fires.
 */
export interface EngineServices {
  /** A chat completion; text deltas go to onToken as they arrive. */
  chat(request: ChatServiceRequest): Promise<ChatServiceResult>;
  image(request: ImageServiceRequest): Promise<ImageServiceResult>;
  speech(request: SpeechServiceRequest): Promise<BinaryResult>;
  transcribe(request: TranscribeServiceRequest): Promise<{ text: string }>;
  ocr(request: OcrServiceRequest): Promise<{ text: string }>;
  video(request: VideoServiceRequest): Promise<BinaryResult>;
  rerank(request: RerankServiceRequest): Promise<{ results: { index: number; score: number }[] }>;
  /** Any outgoing HTTP request of a node; the host checks the URL (SSRF guard) and follows redirects. */
  http(request: HttpServiceRequest): Promise<HttpServiceResponse>;
  /** Collections, loaders and vector stores; nodes that need a missing method fail with a clear error. */
  knowledge?: KnowledgeServices;
  /**
   * Runs one node's execution (its tries, retries and events) inside the host's context, such as a trace
   * span its model calls nest under; answers what `execute` answers. Without it the node runs as is.
   */
  aroundNode?<T extends { status: string }>(
    node: { id: string; type: string },
    execute: () => Promise<T>,
  ): Promise<T>;
}

export interface ChatServiceRequest {
  /** Model ids are the workspace's model records, not provider model names. */
  modelId: string;
  fallbackModelId?: string | undefined;
  system?: string | undefined;
  messages: ChatMessage[];
  temperature?: number | undefined;
  tools?: ToolDefinition[] | undefined;
  signal: AbortSignal;
  onToken?: ((text: string) => void) | undefined;
}

export interface ChatServiceResult {
  text: string;
  toolCalls: ToolCall[];
  usage?: Usage | undefined;
  /** The fallback model answered. */
  usedFallback?: boolean | undefined;
}

export interface ImageServiceRequest {
  modelId: string;
  prompt: string;
  n: number;
  size?: string | undefined;
  quality?: string | undefined;
  style?: string | undefined;
  signal: AbortSignal;
}

export interface ImageServiceResult {
  images: { url?: string | undefined; b64?: string | undefined; revisedPrompt?: string | undefined }[];
}

/** Generated or fetched bytes. */
export interface BinaryResult {
  data: Uint8Array;
  mimeType: string;
}

export interface SpeechServiceRequest {
  modelId: string;
  input: string;
  voice: string;
  format: string;
  speed: number;
  signal: AbortSignal;
}

export interface TranscribeServiceRequest {
  modelId: string;
  audio: { data: Uint8Array; name: string; mimeType: string };
  language?: string | undefined;
  temperature?: number | undefined;
  signal: AbortSignal;
}

export interface OcrServiceRequest {
  modelId: string;
  /** A data: URL or an http(s) URL of an image or a PDF. */
  document: string;
  signal: AbortSignal;
}

export interface VideoServiceRequest {
  modelId: string;
  prompt: string;
  seconds: number;
  size: string;
  signal: AbortSignal;
}

export interface RerankServiceRequest {
  modelId: string;
  query: string;
  documents: string[];
  topK: number;
  signal: AbortSignal;
}

export interface HttpServiceRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface HttpServiceResponse {
  status: number;
  statusText?: string | undefined;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Uint8Array;
}

/** Where vector-store nodes read or write. */
export type StoreTarget =
  | { mode: 'collection'; collectionId: string }
  | { mode: 'custom'; connectorId: string; collectionName: string };

export type LoaderRequest =
  | { loader: 'gitbook'; url: string; loadAllPaths: boolean; signal: AbortSignal }
  | {
      loader: 'notion';
      integrationToken: string;
      databaseId: string;
      filter: Record<string, unknown>;
      timeoutMs: number;
      signal: AbortSignal;
    }
  | {
      loader: 'figma';
      fileKey: string;
      nodeIds: string[];
      accessToken?: string | undefined;
      toolId?: string | undefined;
      signal: AbortSignal;
    }
  | { loader: 'web'; url: string; ignoreLinks: boolean; ignoreImages: boolean; signal: AbortSignal }
  | { loader: 'sitemap'; url: string; filterUrls: string[]; maxPages: number; signal: AbortSignal };

export interface KnowledgeServices {
  retrieve?(request: {
    collectionId: string;
    query: string;
    /** A chatflow's earlier questions, oldest first: a follow-up is searched with them too (`searchesFor`). */
    earlier?: readonly string[];
    limit: number;
    filter?: string | undefined;
    signal: AbortSignal;
  }): Promise<FlowDocument[]>;
  load?(request: LoaderRequest): Promise<FlowDocument[]>;
  insert?(request: {
    documents: FlowDocument[];
    target: StoreTarget;
    embeddingsModelId?: string | undefined;
    smartInsertion: boolean;
    signal: AbortSignal;
  }): Promise<{ inserted: number; collectionId: string }>;
  deleteRecords?(request: {
    condition: string;
    target: StoreTarget;
    signal: AbortSignal;
  }): Promise<{ deleted: number }>;
}
