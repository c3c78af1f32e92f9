import type { LoaderRequest } from '@atelier/engine';
import type { FlowDocument } from '@atelier/schemas';
import { loadFigma } from './figma';
import { loadGitbook } from './gitbook';
import { asLoaderError, type LoaderDeps, loaderContext } from './http';
import { loadNotion } from './notion';
import { loadSitemap } from './sitemap';
import { loadWebPage } from './web';

/**
 * Runs one loader of the engine (`KnowledgeServices.load`): every request goes through `deps.fetch`
 * (the SSRF-guarded client) with the request's signal. Every failure is a `LoaderError` (status, code,
 * detail, retryable), the guard's `NetError`s included (same status, code and detail).
 */
export async function loadDocuments(request: LoaderRequest, deps: LoaderDeps): Promise<FlowDocument[]> {
  const ctx = loaderContext(deps, request.signal);
  try {
    return await run(request, ctx);
  } catch (error) {
    throw asLoaderError(error);
  }
}

function run(request: LoaderRequest, ctx: ReturnType<typeof loaderContext>): Promise<FlowDocument[]> {
  switch (request.loader) {
    case 'web':
      return loadWebPage(ctx, request);
    case 'sitemap':
      return loadSitemap(ctx, request);
    case 'gitbook':
      return loadGitbook(ctx, request);
    case 'notion':
      return loadNotion(ctx, request);
    case 'figma':
      return loadFigma(ctx, request);
  }
}

export { guardedLoaderFetch } from './guarded-fetch';
export {
  DEFAULT_LOADER_LIMITS,
  LoaderError,
  type LoaderDeps,
  type LoaderFetch,
  type LoaderHttpRequest,
  type LoaderHttpResponse,
  type LoaderLimits,
  type LoaderTool,
} from './http';
export { urlFilter } from './sitemap';
