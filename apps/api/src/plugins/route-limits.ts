import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteRateLimits } from '../env';
import { AppError } from '../services/errors';

/** The costly routes' limits, by name; a route opts in with `config.rateLimitPreset`. */
export type RateLimitPreset = keyof RouteRateLimits;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Counts this route's calls against the caller's per-minute budget of the preset. */
    rateLimitPreset?: RateLimitPreset;
  }
}

const WINDOW_MS = 60_000;

type Limiter = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * Per-user limits on the costly routes (chat messages, runs, model calls, provider tests, page views),
 * with @fastify/rate-limit registered with `global: false`. Each preset is one limiter shared by the
 * routes that declare it (the three chat-message routes count together), keyed by the authenticated
 * user (falling back to the client address), counted in Redis when REDIS_URL is set so that every API
 * process shares the count, in memory otherwise. The limiter runs as a preParsing hook: after the auth
 * hook (onRequest) has set the principal and before the body is read, so a refused call costs no
 * parsing. Over the limit: 429 `{detail, code: 'rate_limited'}` with Retry-After, answered by the error
 * handler. Should Redis fail, calls are let through (a limit must not take the API down with it).
 */
export default fp(
  async function routeLimits(app: FastifyInstance, opts: { limits: RouteRateLimits; nameSpace: string }) {
    await app.register(rateLimit, {
      global: false,
      ...(app.redis ? { redis: app.redis } : {}),
      nameSpace: `${opts.nameSpace}:rl:route:`,
      skipOnError: true,
      errorResponseBuilder: (_request, context) => {
        const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
        return new AppError(
          429,
          'rate_limited',
          `Too many requests. Please wait ${seconds} seconds and try again.`,
          { 'retry-after': String(seconds) },
        );
      },
    });

    const limiters = new Map<RateLimitPreset, Limiter>();
    for (const preset of Object.keys(opts.limits) as RateLimitPreset[]) {
      limiters.set(
        preset,
        app.rateLimit({
          max: opts.limits[preset],
          timeWindow: WINDOW_MS,
          keyGenerator: (request) =>
            `${preset}:${request.principal ? `user:${request.principal.userId}` : `ip:${request.ip}`}`,
        }),
      );
    }

    app.addHook('onRoute', (route) => {
      const preset = route.config?.rateLimitPreset;
      if (!preset) return;
      const limiter = limiters.get(preset);
      if (!limiter) throw new Error(`Route ${route.url} names an unknown rate-limit preset "${preset}".`);
      const hook = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        await limiter(request, reply);
        return payload;
      };
      route.preParsing = [...[route.preParsing ?? []].flat(), hook] as typeof route.preParsing;
    });
  },
  { name: 'route-limits', dependencies: ['redis'] },
);
