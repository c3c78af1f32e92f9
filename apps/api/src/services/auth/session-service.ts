import { randomUUID } from 'node:crypto';
import { refreshTokens, users, type Db } from '@atelier/db';
import type { AppRoleId, TokenAnswer } from '@atelier/schemas';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { AppError } from '../errors';
import { hashToken, newOpaqueToken, verifyPassword } from './secrets';

export interface AccessClaims {
  sub: string;
  org: string;
  role: AppRoleId;
}

export interface SessionServiceDeps {
  db: Db;
  signAccessToken(claims: AccessClaims): string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
}

const invalidCredentials = () =>
  new AppError(401, 'invalid_credentials', 'The email or password is incorrect.');
const refreshRefused = (code: string, detail: string) => new AppError(401, code, detail);

export function createSessionService(deps: SessionServiceDeps) {
  const { db } = deps;

  async function issue(user: { id: string; organizationId: string; userRoleId: string }, familyId: string) {
    const { token, hash } = newOpaqueToken();
    const expiresAt = new Date(Date.now() + deps.refreshTokenTtlDays * 86_400_000);
    await db.insert(refreshTokens).values({ userId: user.id, familyId, tokenHash: hash, expiresAt });
    const answer: TokenAnswer = {
      access_token: deps.signAccessToken({
        sub: user.id,
        org: user.organizationId,
        role: user.userRoleId as AppRoleId,
      }),
      refresh_token: token,
      token_type: 'bearer',
      expires_in: deps.accessTokenTtlSeconds,
    };
    return answer;
  }

  async function revokeFamily(familyId: string) {
    await db
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  return {
    /** Starts a new session (a new refresh-token family) for a user who proved who they are. */
    startSession: (user: { id: string; organizationId: string; userRoleId: string }) =>
      issue(user, randomUUID()),

    async login(email: string, password: string): Promise<{ tokens: TokenAnswer; userId: string }> {
      const [user] = await db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
        .limit(1);
      const ok = await verifyPassword(user?.passwordHash ?? null, password);
      if (!user || !ok) throw invalidCredentials();
      return { tokens: await issue(user, randomUUID()), userId: user.id };
    },

    /**
     * Rotates a refresh token. The update that marks it rotated is the single point of truth, so two
     * concurrent uses of one token cannot both succeed; presenting a rotated or revoked token is
     * treated as theft and revokes every token of its family.
     */
    async refresh(presented: string): Promise<TokenAnswer> {
      const tokenHash = hashToken(presented);
      const [rotated] = await db
        .update(refreshTokens)
        .set({ rotatedAt: new Date() })
        .where(
          and(
            eq(refreshTokens.tokenHash, tokenHash),
            isNull(refreshTokens.rotatedAt),
            isNull(refreshTokens.revokedAt),
          ),
        )
        .returning();
      if (!rotated) {
        const [known] = await db
          .select()
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, tokenHash))
          .limit(1);
        if (!known)
          throw refreshRefused('invalid_refresh_token', 'The refresh token is not valid. Please log in.');
        await revokeFamily(known.familyId);
        throw refreshRefused(
          'refresh_token_reused',
          'This refresh token was already used or revoked; the session has been closed. Please log in again.',
        );
      }
      if (rotated.expiresAt.getTime() <= Date.now()) {
        await revokeFamily(rotated.familyId);
        throw refreshRefused('refresh_token_expired', 'The session has expired. Please log in again.');
      }
      const [user] = await db.select().from(users).where(eq(users.id, rotated.userId)).limit(1);
      if (!user)
        throw refreshRefused('invalid_refresh_token', 'The refresh token is not valid. Please log in.');
      return issue(user, rotated.familyId);
    },

    /** Logout: closes the session the refresh token belongs to. Unknown tokens are ignored. */
    async revoke(presented: string): Promise<void> {
      const [known] = await db
        .select({ familyId: refreshTokens.familyId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(presented)))
        .limit(1);
      if (known) await revokeFamily(known.familyId);
    },

    /** Closes every session of a user (after a password change). */
    async revokeAllFor(userId: string): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: new Date() })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
