import { createGuardedFetch } from '@atelier/net';
import OpenAI, { AzureOpenAI } from 'openai';
import {
  cancelledError,
  fromHttpStatus,
  fromNetError,
  netErrorIn,
  ProviderError,
  timeoutError,
  unreachable,
} from '../errors';
import type { ProviderConfig } from '../types';

export const DEFAULT_BASE_URLS = {
  openai: 'https://api.openai.com/v1',
  mistral: 'https://api.mistral.ai/v1',
  ollama: 'http://localhost:11434/v1',
} as const;

export const DEFAULT_TIMEOUT_MS = 60_000;
const AZURE_API_VERSION = '2024-10-21';
export const DEFAULT_RETRIES = 2;

/** The openai SDK for OpenAI, Azure OpenAI and every OpenAI-compatible server (Mistral, Ollama, vLLM…). */
export function openaiClient(config: ProviderConfig): OpenAI {
  const common = {
    timeout: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: config.maxRetries ?? DEFAULT_RETRIES,
    // Every request of the SDK goes through the guarded client: the provider URL policy checks each hop.
    fetch: createGuardedFetch(config.urlPolicy, { what: 'The provider URL' }),
  };
  if (config.kind === 'azure_openai') {
    if (!config.baseUrl)
      throw new ProviderError('bad_request', 'Azure OpenAI needs the endpoint of your resource as base URL.');
    return new AzureOpenAI({
      ...common,
      apiKey: config.apiKey ?? '',
      endpoint: config.baseUrl,
      apiVersion: config.settings?.api_version || AZURE_API_VERSION,
    });
  }
  const fallback = DEFAULT_BASE_URLS[config.kind as keyof typeof DEFAULT_BASE_URLS];
  const baseURL = config.baseUrl || fallback;
  if (!baseURL) throw new ProviderError('bad_request', 'This provider needs a base URL.');
  // Local servers (Ollama, vLLM, LM Studio) often take no key; the SDK insists on one.
  return new OpenAI({ ...common, apiKey: config.apiKey || 'not-needed', baseURL });
}

/**
 * Where a call of the OpenAI API goes and how it authenticates, as the SDK would send it: used by the
 * streamed chat and by embeddings, which run on node:http for speed (see ../http-stream.ts, ../http.ts).
 */
export function openaiTarget(
  config: ProviderConfig,
  model: string,
  endpoint: 'chat/completions' | 'embeddings',
): { url: string; headers: Record<string, string> } {
  if (config.kind === 'azure_openai') {
    if (!config.baseUrl)
      throw new ProviderError('bad_request', 'Azure OpenAI needs the endpoint of your resource as base URL.');
    const version = config.settings?.api_version || AZURE_API_VERSION;
    return {
      url: `${config.baseUrl.replace(/\/+$/, '')}/openai/deployments/${encodeURIComponent(model)}/${endpoint}?api-version=${encodeURIComponent(version)}`,
      headers: { 'api-key': config.apiKey ?? '' },
    };
  }
  const baseURL = config.baseUrl || DEFAULT_BASE_URLS[config.kind as keyof typeof DEFAULT_BASE_URLS];
  if (!baseURL) throw new ProviderError('bad_request', 'This provider needs a base URL.');
  return {
    url: `${baseURL.replace(/\/+$/, '')}/${endpoint}`,
    headers: { authorization: `Bearer ${config.apiKey || 'not-needed'}` },
  };
}

/** The SDK's errors, in our words. */
export function mapOpenAIError(
  error: unknown,
  model?: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof OpenAI.APIUserAbortError) return cancelledError();
  if (error instanceof OpenAI.APIConnectionTimeoutError) return timeoutError(timeoutMs);
  const refused = netErrorIn(error);
  if (refused) return fromNetError(refused, timeoutMs);
  if (error instanceof OpenAI.APIConnectionError)
    return unreachable(error.cause ? String(error.cause) : error.message);
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const body = error.error as { message?: string } | undefined;
    return fromHttpStatus(error.status, body?.message ?? error.message, model);
  }
  if ((error as Error)?.name === 'AbortError') return cancelledError();
  return new ProviderError(
    'provider_error',
    `The provider call failed: ${(error as Error)?.message ?? String(error)}`,
  );
}

/** Runs an SDK call and translates its failures. */
export async function call<T>(
  model: string | undefined,
  config: ProviderConfig,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw mapOpenAIError(error, model, config.timeoutMs);
  }
}
