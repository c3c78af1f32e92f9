import jwt from '@fastify/jwt';
import type { AppRoleId } from '@atelier/schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { ApiKeyPrincipal, EmbedPrincipal, Principal } from '../services/auth/principal';
import type { AccessClaims } from '../services/auth/session-service';
import { AppError } from '../services/errors';
import { authenticateEmbed } from './embed-access';

/**
 * How a route is reached, declared on the route itself (`config.access`) and enforced here, in one
 * place: `public`, the application roles allowed (a user's JWT), `api_key` (the public API: a
 * chatbot's API key, never a JWT; and a key is never accepted where a JWT is expected), or `embed` (the
 * embeddable chat: the public embed token in the route's own path, from an allowed origin; it is no
 * bearer token, so it reaches nothing else). A route that
 * declares nothing is refused at start-up, so no route can be open by omission.
 */
export type Access = 'public' | 'api_key' | 'embed' | { roles: readonly AppRoleId[] };

/** The role sets routes declare, shared with the web app's guards. */
export { ADMINS, ALL_ROLES, BUILDERS } from '@atelier/schemas/constants';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal?: Principal;
    /** The caller of a public-API route. */
    apiKey?: ApiKeyPrincipal;
    /** The caller of an embed route. */
    embed?: EmbedPrincipal;
  }
  interface FastifyInstance {
    /** Every route with its access rule, as registered (the role-matrix test walks it). */
    routeCatalog: { method: string; url: string; access: Access; bodyLimit: number }[];
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessClaims;
    user: AccessClaims;
  }
}

const unauthenticated = (detail = 'Please log in.') => new AppError(401, 'unauthenticated', detail);

/**
 * Access tokens already verified, with their claims, until they expire: a client sends the same token
 * with each call for its lifetime, and its signature and expiry are checked once. The user row is still
 * read (from its cache) on every call, so revocation and role changes hold as before.
 */
const VERIFIED_TOKENS = 10_000;
const verified = new LRUCache<string, { claims: AccessClaims; expiresAt: number }>({ max: VERIFIED_TOKENS });

function knownClaims(token: string): AccessClaims | null {
  const entry = verified.get(token);
  if (!entry) return null;
  if (entry.expiresAt > Date.now()) return entry.claims;
  verified.delete(token);
  return null;
}

/** The API key calling a public-API route (the hook guarantees it is there). */
export function apiKeyOf(request: FastifyRequest): ApiKeyPrincipal {
  if (!request.apiKey) throw unauthenticated();
  return request.apiKey;
}

/** The caller of an authenticated route (the hook guarantees it is there). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated();
  return request.principal;
}

async function verify(request: FastifyRequest, token: string): Promise<AccessClaims> {
  const claims = await request.jwtVerify<AccessClaims & { exp?: number }>();
  if (typeof claims.exp === 'number') verified.set(token, { claims, expiresAt: claims.exp * 1000 });
  return claims;
}

export default fp(
  async function auth(app: FastifyInstance, opts: { secret: string; accessTokenTtlSeconds: number }) {
    await app.register(jwt, {
      secret: opts.secret,
      sign: { algorithm: 'HS256', expiresIn: opts.accessTokenTtlSeconds },
      verify: { algorithms: ['HS256'] },
    });

    app.decorate('routeCatalog', []);
    app.addHook('onRoute', (route) => {
      // The OpenAPI document and its viewer are public by nature.
      if (route.url.startsWith('/docs')) route.config = { ...route.config, access: 'public' };
      if (!route.config?.access) {
        throw new Error(`Route ${route.method} ${route.url} declares no access rule (config.access).`);
      }
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        const bodyLimit = route.bodyLimit ?? app.initialConfig.bodyLimit ?? 1_048_576;
        app.routeCatalog.push({ method, url: route.url, access: route.config.access, bodyLimit });
      }
    });

    app.addHook('onRequest', async (request) => {
      const access = request.routeOptions.config.access;
      if (!access || access === 'public') return;
      if (access === 'embed') {
        request.embed = await authenticateEmbed(app, request);
        return;
      }
      if (!request.headers.authorization?.startsWith('Bearer ')) throw unauthenticated();
      if (access === 'api_key') {
        const token = request.headers.authorization.slice('Bearer '.length).trim();
        request.apiKey = await app.services.apiKeys.authenticate(token);
        return;
      }
      const token = request.headers.authorization.slice('Bearer '.length);
      let claims: AccessClaims;
      try {
        claims = knownClaims(token) ?? (await verify(request, token));
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED') {
          throw new AppError(401, 'token_expired', 'Your session has expired. Please log in again.');
        }
        throw new AppError(401, 'invalid_token', 'The access token is not valid. Please log in.');
      }
      // The user's current row decides: a deleted user or a changed role takes effect at once (the
      // cached row is dropped in every process by whoever changes it: services/auth/user-rows.ts).
      const user = await app.services.userRows.get(claims.sub);
      if (!user || user.organizationId !== claims.org)
        throw unauthenticated('Your account no longer exists.');
      // Logout, a password change or a reset bump the version: older access tokens end at once.
      if (claims.ver !== user.tokenVersion) {
        throw new AppError(
          401,
          'token_revoked',
          'This session was ended by a logout or a password change. Please log in again.',
        );
      }
      const role = user.role;
      if (!access.roles.includes(role)) {
        throw new AppError(
          403,
          'forbidden',
          "Access Forbidden: You don't have permission to access this page.",
        );
      }
      request.principal = { userId: user.id, organizationId: user.organizationId, role, email: user.email };
    });
  },
  { name: 'auth', dependencies: ['db'] },
);
