import jwt from '@fastify/jwt';
import { users } from '@atelier/db';
import type { AppRoleId } from '@atelier/schemas';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Principal } from '../services/auth/principal';
import type { AccessClaims } from '../services/auth/session-service';
import { AppError } from '../services/errors';

/**
 * How a route is reached, declared on the route itself (`config.access`) and enforced here, in one
 * place: `public`, or the application roles allowed. A route that declares nothing is refused at
 * start-up, so no route can be open by omission.
 */
export type Access = 'public' | { roles: readonly AppRoleId[] };

/** The role sets routes declare, shared with the web app's guards. */
export { ADMINS, ALL_ROLES, BUILDERS } from '@atelier/schemas/constants';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal?: Principal;
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

/** The caller of an authenticated route (the hook guarantees it is there). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated();
  return request.principal;
}

export default fp(
  async function auth(app: FastifyInstance, opts: { secret: string; accessTokenTtlSeconds: number }) {
    await app.register(jwt, {
      secret: opts.secret,
      sign: { algorithm: 'HS256', expiresIn: opts.accessTokenTtlSeconds },
      verify: { algorithms: ['HS256'] },
    });

    // Built once: this lookup runs on every authenticated request.
    const userById = app.db
      .select({
        id: users.id,
        organizationId: users.organizationId,
        role: users.userRoleId,
        email: users.email,
        tokenVersion: users.tokenVersion,
      })
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1)
      .prepare('auth_user_by_id');

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
      if (!request.headers.authorization?.startsWith('Bearer ')) throw unauthenticated();
      let claims: AccessClaims;
      try {
        claims = await request.jwtVerify<AccessClaims>();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED') {
          throw new AppError(401, 'token_expired', 'Your session has expired. Please log in again.');
        }
        throw new AppError(401, 'invalid_token', 'The access token is not valid. Please log in.');
      }
      // The user's current row decides: a deleted user or a changed role takes effect at once.
      const [user] = await userById.execute({ id: claims.sub });
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
