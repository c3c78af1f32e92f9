import type { IncomingMessage, ServerResponse } from 'node:http';

export interface FakeProviderOptions {
  /** Default 'test-key'. Checked as `Authorization: Bearer`, Azure `api-key` or Anthropic `x-api-key`. */
  apiKey?: string;
  /** Delay between streamed chunks, default 0. */
  tokenDelayMs?: number;
  /**
   * Delay before the first token: the stream's second event (its first opens the message), as a
   * model's time to first token; default `tokenDelayMs`.
   */
  firstTokenDelayMs?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 64; an embeddings request may still ask for `dimensions`. */
  embeddingDimensions?: number;
}

export interface RecordedRequest {
  method: string;
  /** Path with its query string, e.g. `/openai/deployments/d/embeddings?api-version=2024-10-21`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON; multipart as a plain object (files as `{ filename, type, size }`); other text as a string. */
  body: unknown;
}

export interface ScriptedToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface FakeProvider {
  /** e.g. http://127.0.0.1:PORT (no trailing slash) */
  url: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** Queue scripted tool calls: the next chat request (OpenAI or Anthropic) answers with these tool calls instead of text. */
  scriptToolCalls(calls: ScriptedToolCall[]): void;
  setTokenDelay(ms: number): void;
  /** number of in-flight requests whose client disconnected before the answer ended (to test cancellation) */
  aborted(): number;
  close(): Promise<void>;
}

/** Which real API a route imitates: decides how callers authenticate and how errors look. */
export type Dialect = 'openai' | 'azure' | 'anthropic' | 'rerank' | 'public';

export interface VideoJob {
  id: string;
  model: string;
  seconds: string;
  size: string;
  createdAt: number;
  polls: number;
}

/** Mutable state shared by every handler of one fake provider. */
export interface ProviderState {
  apiKey: string;
  tokenDelayMs: number;
  firstTokenDelayMs: number | null;
  embeddingDimensions: number;
  baseUrl: string;
  toolScripts: ScriptedToolCall[][];
  flakyModelsSeen: Set<string>;
  /** Generated images served back at /files/{id}, so `response_format: 'url'` answers are fetchable. */
  files: Map<string, { contentType: string; bytes: Buffer }>;
  videos: Map<string, VideoJob>;
}

/** One request being answered. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  dialect: Dialect;
  /** Captures of the route pattern. */
  params: string[];
  /** Azure puts the model in the path; it then replaces the body's `model`. */
  deployment: string | undefined;
  json: unknown;
  form: FormData | undefined;
  state: ProviderState;
  isClosed(): boolean;
  /** Resolves when the connection of this response closes, for whatever reason. */
  disconnected: Promise<void>;
}
