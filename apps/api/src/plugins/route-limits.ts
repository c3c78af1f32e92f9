import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RouteRateLimits } from '../env';
import { AppError } from '../services/errors';

/** The costly routes' limits, by name; a route opts in with `config.rateLimitPreset`. */
export type RateLimitPreset = keyof RouteRateLimits;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Counts this route's calls against the caller's per-minute budget of the preset (or presets). */
    rateLimitPreset?: RateLimitPreset | readonly RateLimitPreset[];
  }
}

const WINDOW_MS = 60_000;

/** An embed caller's browser: the random id it sends as `?user=` (checked by the route's schema). */
const browserOf = (request: FastifyRequest) => {
  const user = (request.query as { user?: unknown } | undefined)?.user;
  return typeof user === 'string' ? user.slice(0, 64) : '-';
};

/**
 * Whom a limit counts: the API key, the embed token's chatbot (or one browser of it), the user, or
 * (before any is known) the client address.
 */
const callerKey = (request: FastifyRequest, preset: RateLimitPreset) => {
  if (request.apiKey) return `key:${request.apiKey.keyId}`;
  if (request.embed) {
    const embed = `embed:${request.embed.chatbotId}`;
    return preset === 'embedBrowser' ? `${embed}:${browserOf(request)}` : embed;
  }
  if (request.principal) return `user:${request.principal.userId}`;
  return `ip:${request.ip}`;
};

type Limiter = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
/** Counts one call and says whether the limit is passed (for a route's further presets). */
type Counter = ReturnType<FastifyInstance['createRateLimit']>;

function tooMany(ttlMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return new AppError(
    429,
    'rate_limited',
    `Too many requests. Please wait ${seconds} seconds and try again.`,
    {
      'retry-after': String(seconds),
    },
  );
}

/**
 * Per-user limits on the costly routes (chat messages, runs, model calls, provider tests, page views),
 * and per-key limits on the public API (`publicApi`, every /v1 call of a key counting together),
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
      errorResponseBuilder: (_request, context) => tooMany(context.ttl),
    });

    const limiters = new Map<RateLimitPreset, { limiter: Limiter; counter: Counter }>();
    for (const preset of Object.keys(opts.limits) as RateLimitPreset[]) {
      const options = {
        max: opts.limits[preset],
        timeWindow: WINDOW_MS,
        keyGenerator: (request: FastifyRequest) => `${preset}:${callerKey(request, preset)}`,
      };
      limiters.set(preset, { limiter: app.rateLimit(options), counter: app.createRateLimit(options) });
    }

    app.addHook('onRoute', (route) => {
      const presets = [route.config?.rateLimitPreset ?? []].flat();
      if (presets.length === 0) return;
      const chosen = presets.map((preset) => {
        const limiter = limiters.get(preset);
        if (!limiter) throw new Error(`Route ${route.url} names an unknown rate-limit preset "${preset}".`);
        return limiter;
      });
      // The first preset answers with its X-RateLimit headers; a request is limited once by the plugin,
      // so further presets are counted with its counter.
      const [first, ...more] = chosen;
      const hook = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        await first!.limiter(request, reply);
        for (const { counter } of more) {
          const counted = await counter(request);
          if (!counted.isAllowed && counted.isExceeded) throw tooMany(counted.ttl);
        }
        return payload;
      };
      route.preParsing = [...[route.preParsing ?? []].flat(), hook] as typeof route.preParsing;
    });
  },
  { name: 'route-limits', dependencies: ['redis'] },
);
