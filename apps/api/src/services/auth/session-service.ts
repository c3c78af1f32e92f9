import type { UserRows } from './user-rows';
import { randomUUID } from 'node:crypto';
import { refreshTokens, users, type Db, type DbOrTx } from '@atelier/db';
import type { AppRoleId, TokenAnswer } from '@atelier/schemas';
import { and, asc, eq, exists, isNotNull, isNull, sql } from 'drizzle-orm';
import { AppError } from '../errors';
import { hashToken, newOpaqueToken, verifyPassword, verifyPasswords } from './secrets';

export interface AccessClaims {
  sub: string;
  org: string;
  role: AppRoleId;
  /** The user's token version when the token was signed; a bumped version revokes the token. */
  ver: number;
}

export interface SessionServiceDeps {
  db: Db;
  signAccessToken(claims: AccessClaims): string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /** Told when a user's token version moves (a logout). */
  userRows: Pick<UserRows, 'forget'>;
}

type SessionUser = { id: string; organizationId: string; userRoleId: AppRoleId; tokenVersion: number };

const invalidCredentials = () =>
  new AppError(401, 'invalid_credentials', 'The email or password is incorrect.');
const refreshRefused = (code: string, detail: string) => new AppError(401, code, detail);

/** Marks every live refresh token of a user revoked (inside the caller's transaction when given). */
export async function revokeAllRefreshTokens(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/** The SQL that ends a user's outstanding access tokens, for an update of the user row. */
export const bumpedTokenVersion = sql`${users.tokenVersion} + 1`;

export function createSessionService(deps: SessionServiceDeps) {
  const { db } = deps;

  async function issue(tx: DbOrTx, user: SessionUser, familyId: string) {
    const { token, hash } = newOpaqueToken();
    const expiresAt = new Date(Date.now() + deps.refreshTokenTtlDays * 86_400_000);
    await tx.insert(refreshTokens).values({ userId: user.id, familyId, tokenHash: hash, expiresAt });
    const answer: TokenAnswer = {
      access_token: deps.signAccessToken({
        sub: user.id,
        org: user.organizationId,
        role: user.userRoleId,
        ver: user.tokenVersion,
      }),
      refresh_token: token,
      token_type: 'bearer',
      expires_in: deps.accessTokenTtlSeconds,
    };
    return answer;
  }

  async function revokeFamily(tx: DbOrTx, familyId: string): Promise<void> {
    await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
  }

  type RefreshOutcome = { tokens: TokenAnswer } | { refused: AppError };

  return {
    /** Starts a new session (a new refresh-token family) for a user who proved who they are. */
    startSession: (user: SessionUser) => issue(db, user, randomUUID()),

    /**
     * Emails are unique per organization, so one email may open several accounts. Every account
     * with this email and a password is verified (all of them, concurrently, so the time hardly
     * depends on their number or on which one matches); the session opens on the matching account
     * logged into most recently (then the oldest account). Nothing tells the caller that other
     * accounts exist.
     */
    async login(email: string, password: string): Promise<{ tokens: TokenAnswer; userId: string }> {
      const candidates = await db
        .select()
        .from(users)
        .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), isNotNull(users.passwordHash)))
        .orderBy(sql`${users.lastLoginAt} desc nulls last`, asc(users.createdAt), asc(users.id));
      const matches =
        candidates.length === 0
          ? [await verifyPassword(null, password)]
          : await verifyPasswords(
              candidates.map((c) => c.passwordHash),
              password,
            );
      const user = candidates.find((_, i) => matches[i]);
      if (!user) throw invalidCredentials();
      await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, user.id));
      return { tokens: await issue(db, user, randomUUID()), userId: user.id };
    },

    /**
     * Rotates a refresh token. The update that marks it rotated is the single point of truth, so two
     * concurrent uses of one token cannot both succeed; presenting a rotated or revoked token is
     * treated as theft and revokes every token of its family. The user row is share-locked first:
     * a password change or reset (which updates that row and revokes the user's refresh tokens in
     * one transaction) either happens before, and this token is found revoked, or waits until the
     * new token exists, and revokes it too.
     */
    async refresh(presented: string): Promise<TokenAnswer> {
      const tokenHash = hashToken(presented);
      const invalid = () =>
        refreshRefused('invalid_refresh_token', 'The refresh token is not valid. Please log in.');
      const [known] = await db
        .select({ userId: refreshTokens.userId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      if (!known) throw invalid();
      const outcome = await db.transaction(async (tx): Promise<RefreshOutcome> => {
        const [user] = await tx.select().from(users).where(eq(users.id, known.userId)).for('share');
        if (!user) return { refused: invalid() };
        const [rotated] = await tx
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
          const [again] = await tx
            .select({ familyId: refreshTokens.familyId })
            .from(refreshTokens)
            .where(eq(refreshTokens.tokenHash, tokenHash))
            .limit(1);
          if (again) await revokeFamily(tx, again.familyId);
          return {
            refused: refreshRefused(
              'refresh_token_reused',
              'This refresh token was already used or revoked; the session has been closed. Please log in again.',
            ),
          };
        }
        if (rotated.expiresAt.getTime() <= Date.now()) {
          await revokeFamily(tx, rotated.familyId);
          return {
            refused: refreshRefused('refresh_token_expired', 'The session has expired. Please log in again.'),
          };
        }
        return { tokens: await issue(tx, user, rotated.familyId) };
      });
      if ('refused' in outcome) throw outcome.refused;
      return outcome.tokens;
    },

    /**
     * Logout: closes the session the refresh token belongs to and bumps the user's token version,
     * so every access token of the user stops working at once (other sessions keep their refresh
     * tokens and get a new access token on their next refresh). Unknown or already closed tokens
     * are ignored and bump nothing.
     */
    async revoke(presented: string): Promise<void> {
      const [known] = await db
        .select({ familyId: refreshTokens.familyId, userId: refreshTokens.userId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(presented)))
        .limit(1);
      if (!known) return;
      // The user row first, then the tokens: the order every other transaction here takes.
      await db.transaction(async (tx) => {
        const liveInFamily = tx
          .select({ id: refreshTokens.id })
          .from(refreshTokens)
          .where(and(eq(refreshTokens.familyId, known.familyId), isNull(refreshTokens.revokedAt)));
        await tx
          .update(users)
          .set({ tokenVersion: bumpedTokenVersion })
          .where(and(eq(users.id, known.userId), exists(liveInFamily)));
        await revokeFamily(tx, known.familyId);
      });
      await deps.userRows.forget(known.userId);
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
