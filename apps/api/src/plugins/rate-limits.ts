import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../env';
import { AppError } from '../services/errors';

type LimitName = 'loginIp' | 'loginAccount' | 'resetIp' | 'resetAccount';

export interface RateLimits {
  /** Counts one attempt; throws 429 with Retry-After once the limit is passed. */
  consume(name: LimitName, key: string): Promise<void>;
  /** Throws 429 when the key has already used up its attempts, without counting one. */
  check(name: LimitName, key: string): Promise<void>;
  reset(name: LimitName, key: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits;
  }
}

function tooMany(msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError(
    429,
    'rate_limited',
    `Too many attempts. Please wait ${seconds} seconds and try again.`,
    { 'retry-after': String(seconds) },
  );
}

/**
 * Login and password-reset limits, per client address and per account. They live in Redis when it
 * is configured, so that every API process shares them, and in memory otherwise.
 */
export default fp(
  async function rateLimits(app: FastifyInstance, opts: { limits: RateLimitConfig }) {
    const make = (keyPrefix: string, points: number, duration: number): RateLimiterAbstract =>
      app.redis
        ? new RateLimiterRedis({
            storeClient: app.redis,
            keyPrefix: `atelier:rl:${keyPrefix}`,
            points,
            duration,
          })
        : new RateLimiterMemory({ keyPrefix, points, duration });
    const limiters: Record<LimitName, RateLimiterAbstract> = {
      loginIp: make('login-ip', opts.limits.loginPerIpPerMinute, 60),
      loginAccount: make('login-account', opts.limits.loginPerAccountPer15Minutes, 15 * 60),
      resetIp: make('reset-ip', opts.limits.resetPerIpPerHour, 60 * 60),
      resetAccount: make('reset-account', opts.limits.resetPerAccountPerHour, 60 * 60),
    };

    const limits: RateLimits = {
      async consume(name, key) {
        try {
          await limiters[name].consume(key);
        } catch (error) {
          if (error instanceof RateLimiterRes) throw tooMany(error.msBeforeNext);
          throw error;
        }
      },
      async check(name, key) {
        const state = await limiters[name].get(key);
        if (state && state.consumedPoints >= limiters[name].points) throw tooMany(state.msBeforeNext);
      },
      async reset(name, key) {
        await limiters[name].delete(key);
      },
    };
    app.decorate('rateLimits', limits);
  },
  { name: 'rate-limits', dependencies: ['redis'] },
);
