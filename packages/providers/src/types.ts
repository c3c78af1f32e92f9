import type { UrlPolicy } from '@atelier/net';
import type { ProviderKind } from '@atelier/schemas';

/** How to reach a provider; the API decrypts the key just before building adapters. */
export interface ProviderConfig {
  kind: ProviderKind;
  baseUrl?: string | null | undefined;
  apiKey?: string | null | undefined;
  settings?: Record<string, string>;
  /**
   * What the provider's requests may reach (PROVIDER_URL_POLICY, PROVIDER_URL_ALLOW): every request,
   * and every redirect hop, is checked against it when it connects.
   */
  urlPolicy: UrlPolicy;
  /** Per-request timeout; streams count it as the longest silence between two chunks. */
  timeoutMs?: number;
  /** Retries on 429 and 5xx, with exponential backoff. */
  maxRetries?: number;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

export type ContentPart = { type: 'text'; text: string } | { type: 'image'; url: string };

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ContentPart[] }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  system?: string | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  tools?: ToolDefinition[] | undefined;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export interface ChatResult {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  finishReason: string;
}

export type ChatEvent = { type: 'text'; text: string } | { type: 'done'; result: ChatResult };

export interface ChatModel {
  complete(request: ChatRequest, options?: CallOptions): Promise<ChatResult>;
  /** Text deltas as they arrive, then one `done` with the whole result. */
  stream(request: ChatRequest, options?: CallOptions): AsyncIterable<ChatEvent>;
}

export interface EmbeddingsModel {
  embed(
    model: string,
    inputs: string[],
    options?: CallOptions,
  ): Promise<{ vectors: number[][]; usage: Usage }>;
}

export interface ImageRequest {
  model: string;
  prompt: string;
  n?: number | undefined;
  size?: string | undefined;
  quality?: string | undefined;
  style?: string | undefined;
}
export interface ImageModel {
  generate(
    request: ImageRequest,
    options?: CallOptions,
  ): Promise<{ images: { b64?: string; url?: string; revisedPrompt?: string }[] }>;
}

export interface SpeechRequest {
  model: string;
  input: string;
  voice?: string | undefined;
  format?: string | undefined;
  speed?: number | undefined;
}
export interface TextToSpeechModel {
  speak(request: SpeechRequest, options?: CallOptions): Promise<{ audio: Buffer; contentType: string }>;
}

export interface TranscriptionRequest {
  model: string;
  audio: Buffer;
  filename: string;
  language?: string | undefined;
  temperature?: number | undefined;
}
export interface SpeechToTextModel {
  transcribe(request: TranscriptionRequest, options?: CallOptions): Promise<{ text: string }>;
}

export interface OcrModel {
  /** `image` is a data URL or an http(s) URL. */
  read(model: string, image: string, options?: CallOptions): Promise<{ text: string; usage: Usage }>;
}

export interface RerankModel {
  rerank(
    request: { model: string; query: string; documents: string[]; topK?: number | undefined },
    options?: CallOptions,
  ): Promise<{ results: { index: number; score: number }[] }>;
}

export interface VideoRequest {
  model: string;
  prompt: string;
  seconds?: number | undefined;
  size?: string | undefined;
}
export interface VideoModel {
  generate(
    request: VideoRequest,
    options?: CallOptions,
  ): Promise<{ video: Buffer; contentType: string; id: string }>;
}

export interface RemoteModel {
  name: string;
}

/** Everything a provider can do; a kind that lacks a capability leaves it undefined. */
export interface ProviderAdapters {
  chat?: ChatModel;
  embeddings?: EmbeddingsModel;
  images?: ImageModel;
  textToSpeech?: TextToSpeechModel;
  speechToText?: SpeechToTextModel;
  ocr?: OcrModel;
  rerank?: RerankModel;
  video?: VideoModel;
  listModels(options?: CallOptions): Promise<RemoteModel[]>;
}
