import type { IncomingMessage } from 'node:http';
import { anthropicMessages } from './anthropic';
import { speech, transcription } from './audio';
import { ApiError, invalid, unauthorized } from './errors';
import { generateImages, servedFile } from './images';
import { ocr } from './ocr';
import { embeddings, listModels, ollamaTags, retrieveModel } from './openai';
import { chatCompletions } from './openai-chat';
import { rerank } from './rerank';
import type { Dialect, Exchange } from './types';
import { createVideo, retrieveVideo, videoContent } from './video';

type Handler = (ex: Exchange) => void | Promise<void>;

interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  dialect: Dialect | ((req: IncomingMessage) => Dialect);
  handle: Handler;
}

// Azure serves the same operations per deployment, without the /v1 prefix.
const AZURE_OPERATIONS: [string, Handler][] = [
  ['chat/completions', chatCompletions],
  ['embeddings', embeddings],
  ['images/generations', generateImages],
  ['audio/speech', speech],
  ['audio/transcriptions', transcription('Transcript')],
  ['audio/translations', transcription('Translation')],
];

const ROUTES: Route[] = [
  {
    method: 'GET',
    pattern: /^\/v1\/models$/,
    // Anthropic lists models at the same path; its clients always send anthropic-version.
    dialect: (req) => (req.headers['anthropic-version'] ? 'anthropic' : 'openai'),
    handle: listModels,
  },
  { method: 'GET', pattern: /^\/v1\/models\/([^/]+)$/, dialect: 'openai', handle: retrieveModel },
  { method: 'POST', pattern: /^\/v1\/chat\/completions$/, dialect: 'openai', handle: chatCompletions },
  { method: 'POST', pattern: /^\/v1\/embeddings$/, dialect: 'openai', handle: embeddings },
  { method: 'POST', pattern: /^\/v1\/images\/generations$/, dialect: 'openai', handle: generateImages },
  { method: 'POST', pattern: /^\/v1\/audio\/speech$/, dialect: 'openai', handle: speech },
  {
    method: 'POST',
    pattern: /^\/v1\/audio\/transcriptions$/,
    dialect: 'openai',
    handle: transcription('Transcript'),
  },
  {
    method: 'POST',
    pattern: /^\/v1\/audio\/translations$/,
    dialect: 'openai',
    handle: transcription('Translation'),
  },
  { method: 'POST', pattern: /^\/v1\/videos$/, dialect: 'openai', handle: createVideo },
  { method: 'GET', pattern: /^\/v1\/videos\/([^/]+)$/, dialect: 'openai', handle: retrieveVideo },
  { method: 'GET', pattern: /^\/v1\/videos\/([^/]+)\/content$/, dialect: 'openai', handle: videoContent },
  { method: 'POST', pattern: /^\/v1\/ocr$/, dialect: 'openai', handle: ocr },
  { method: 'POST', pattern: /^\/v1\/messages$/, dialect: 'anthropic', handle: anthropicMessages },
  { method: 'POST', pattern: /^\/v[12]\/rerank$/, dialect: 'rerank', handle: rerank },
  { method: 'GET', pattern: /^\/api\/tags$/, dialect: 'public', handle: ollamaTags },
  { method: 'GET', pattern: /^\/files\/([^/]+)$/, dialect: 'public', handle: servedFile },
  ...AZURE_OPERATIONS.map(([operation, handle]): Route => ({
    method: 'POST',
    pattern: new RegExp(`^/openai/deployments/([^/]+)/${operation}$`),
    dialect: 'azure',
    handle,
  })),
];

export interface RouteMatch {
  dialect: Dialect;
  params: string[];
  handle: Handler;
}

export function findRoute(req: IncomingMessage, pathname: string): RouteMatch | undefined {
  for (const route of ROUTES) {
    const match = route.method === req.method ? route.pattern.exec(pathname) : null;
    if (!match) continue;
    const dialect = typeof route.dialect === 'function' ? route.dialect(req) : route.dialect;
    return { dialect, params: match.slice(1), handle: route.handle };
  }
  return undefined;
}

/** Each dialect checks the key where its real API expects it, so adapters sending it wrongly fail here too. */
export function authenticate(ex: Exchange): void {
  const { headers } = ex.req;
  const key = ex.state.apiKey;
  switch (ex.dialect) {
    case 'openai':
    case 'rerank':
      if (headers.authorization !== `Bearer ${key}`) throw unauthorized(ex.dialect);
      return;
    case 'azure':
      if (headers['api-key'] !== key) throw unauthorized(ex.dialect);
      // Azure answers a request without api-version with a plain 404.
      if (!ex.url.searchParams.get('api-version'))
        throw new ApiError(404, 'not-found', 'Resource not found', '404');
      return;
    case 'anthropic':
      if (headers['x-api-key'] !== key) throw unauthorized(ex.dialect);
      if (!headers['anthropic-version']) throw invalid('anthropic-version: header is required');
      return;
    case 'public':
      return;
  }
}
