import type { LoaderRequest } from '@atelier/engine';
import type { UrlPolicy } from '@atelier/net';
import { guardedLoaderFetch, type LoaderDeps, type LoaderTool } from '../src/loaders/index';

/** The real guard under 'public-only', with the fakes' 127.0.0.1 allowed as NODE_URL_ALLOW would. */
export const FAKES_POLICY: UrlPolicy = { mode: 'public-only', allow: ['127.0.0.1'] };

export function loaderDeps(
  overrides: Partial<LoaderDeps> = {},
  tools: Record<string, LoaderTool> = {},
): LoaderDeps {
  return {
    fetch: guardedLoaderFetch(FAKES_POLICY),
    resolveTool: (id) => Promise.resolve(tools[id] ?? null),
    ...overrides,
  };
}

type Without<T> = T extends unknown ? Omit<T, 'signal'> : never;
/** A loader request with a fresh signal. */
export const req = (request: Without<LoaderRequest>, signal = new AbortController().signal): LoaderRequest =>
  ({ ...request, signal }) as LoaderRequest;
