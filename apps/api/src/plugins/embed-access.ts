import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmbedPrincipal } from '../services/auth/principal';
import type { FoundEmbed } from '../services/embeds/embeds-service';
import { AppError } from '../services/errors';
import { REQUEST_ID_HEADER } from './request-id';

/** An embed route's path: `/embed/{token}/…` (the page itself, `/embed/{token}`, included). */
const TOKEN_IN_PATH = /^\/embed\/(emb_[A-Za-z0-9_-]{20,64})(?:[/?#]|$)/;

export const embedTokenInUrl = (url: string): string | null => TOKEN_IN_PATH.exec(url)?.[1] ?? null;

// One lookup per request, shared by the CORS rule and the access hook.
const lookups = new WeakMap<object, Promise<FoundEmbed | null>>();

/** The embed the request's path names (null: none, or an unknown token). */
export function embedOf(app: FastifyInstance, request: FastifyRequest): Promise<FoundEmbed | null> {
  let lookup = lookups.get(request.raw);
  if (!lookup) {
    const token = embedTokenInUrl(request.url);
    lookup = token ? app.services.embeds.find(token) : Promise.resolve(null);
    lookups.set(request.raw, lookup);
  }
  return lookup;
}

/** Whether an Origin is the API's own (the iframe page it serves calls it from there). */
export function isOwnOrigin(app: FastifyInstance, request: FastifyRequest, origin: string): boolean {
  return (
    origin === new URL(app.config.publicApiUrl).origin || origin === `${request.protocol}://${request.host}`
  );
}

/**
 * The one CORS rule: the web app's origins (with credentials) on every route, except the embed routes,
 * which answer only their chatbot's allowed origins (without credentials). A page of another site gets
 * no CORS header, and the access hook refuses its request with 403.
 */
export function corsOptionsFor(app: FastifyInstance) {
  const common = { methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], maxAge: 600 };
  // A page may read each answer's request id (to quote it in a bug report).
  return async (request: FastifyRequest): Promise<FastifyCorsOptions> => {
    if (!embedTokenInUrl(request.url)) {
      // The web app names a log export's download after the server's file name, and waits as a
      // 429's Retry-After says before sending an upload again.
      return {
        ...common,
        origin: app.config.webOrigins,
        credentials: true,
        exposedHeaders: ['content-disposition', 'retry-after', REQUEST_ID_HEADER],
      };
    }
    const found = await embedOf(app, request);
    return {
      ...common,
      origin: found?.enabled ? found.allowedOrigins : false,
      credentials: false,
      exposedHeaders: [REQUEST_ID_HEADER],
    };
  };
}

/** The caller of an `access: 'embed'` route: the token in its path, from a page allowed to use it. */
export async function authenticateEmbed(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<EmbedPrincipal> {
  const origin = request.headers.origin;
  const sameSite = origin ? isOwnOrigin(app, request, origin) : true;
  return app.services.embeds.authenticate(await embedOf(app, request), origin, sameSite);
}

/** The caller of an embed route (the hook guarantees it is there). */
export function embedCallerOf(request: FastifyRequest): EmbedPrincipal {
  if (!request.embed) throw new AppError(404, 'embed_not_found', 'This chat is not available.');
  return request.embed;
}
