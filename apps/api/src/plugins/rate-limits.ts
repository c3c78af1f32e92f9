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

type LimitName =
  'loginIp' | 'loginAccountAddress' | 'loginAccount' | 'loginKnownAddress' | 'resetIp' | 'resetAccount';

/** Keys of the login limits: the account is the lower-cased email, the address the client's. */
export const loginKeys = (email: string, ip: string) => {
  const account = email.toLowerCase();
  return { account, accountAddress: `${account}|${ip}` };
};

/** How many failed logins an account takes from all unknown addresses together, per 15 minutes. */
export const ACCOUNT_CEILING_FACTOR = 10;
/** How long an address that logged into an account stays exempt from that account's ceiling. */
const KNOWN_ADDRESS_SECONDS = 14 * 24 * 60 * 60;

export interface RateLimits {
  /** Counts one attempt; throws 429 with Retry-After once the limit is passed. */
  consume(name: LimitName, key: string): Promise<void>;
  /** Throws 429 when the key has already used up its attempts, without counting one. */
  check(name: LimitName, key: string): Promise<void>;
  reset(name: LimitName, key: string): Promise<void>;
  /** Whether the key has counted anything that has not expired yet. */
  seen(name: LimitName, key: string): Promise<boolean>;
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
 * Login and password-reset limits. They live in Redis when it is configured, so that every API
 * process shares them, and in memory otherwise. Login (see the README, "Login and lockout"):
 * - `loginIp`: attempts per client address, whatever the account;
 * - `loginAccountAddress`: failed passwords per account and address; this is the lockout, and it
 *   only locks that address, so a stranger cannot lock a user out;
 * - `loginAccount`: failed passwords per account from everywhere, a ceiling ten times higher
 *   against distributed guessing, which is not applied to addresses that logged into the account
 *   in the last 14 days (`loginKnownAddress`), so it cannot lock the user out of their own.
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
            // While Redis is away, this process counts alone (login keeps working, still limited).
            insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
          })
        : new RateLimiterMemory({ keyPrefix, points, duration });
    const limiters: Record<LimitName, RateLimiterAbstract> = {
      loginIp: make('login-ip', opts.limits.loginPerIpPerMinute, 60),
      loginAccountAddress: make('login-account-address', opts.limits.loginPerAccountPer15Minutes, 15 * 60),
      loginAccount: make(
        'login-account',
        opts.limits.loginPerAccountPer15Minutes * ACCOUNT_CEILING_FACTOR,
        15 * 60,
      ),
      loginKnownAddress: make('login-known-address', 1_000_000_000, KNOWN_ADDRESS_SECONDS),
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
      async seen(name, key) {
        const state = await limiters[name].get(key);
        return Boolean(state && state.consumedPoints > 0);
      },
    };
    app.decorate('rateLimits', limits);
  },
  { name: 'rate-limits', dependencies: ['redis'] },
);
