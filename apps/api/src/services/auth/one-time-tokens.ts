import { oneTimeTokens, type DbOrTx } from '@atelier/db';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { AppError } from '../errors';
import { hashToken, newOpaqueToken } from './secrets';

export type Purpose = 'password_reset' | 'onboarding';
type TokenRow = typeof oneTimeTokens.$inferSelect;

const wording: Record<Purpose, { prefix: string; what: string; again: string }> = {
  onboarding: {
    prefix: 'onboarding_token',
    what: 'This invitation link',
    again: 'Please ask an administrator for a new invitation.',
  },
  password_reset: {
    prefix: 'reset_token',
    what: 'This password reset link',
    again: 'Please request a new password reset.',
  },
};

/** Issues a single-use token; earlier unused tokens of the same purpose stop working. */
export async function issueOneTimeToken(db: DbOrTx, userId: string, purpose: Purpose, ttlMs: number) {
  const now = new Date();
  await db
    .update(oneTimeTokens)
    .set({ expiresAt: now })
    .where(
      and(
        eq(oneTimeTokens.userId, userId),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    );
  const { token, hash } = newOpaqueToken();
  const expiresAt = new Date(now.getTime() + ttlMs);
  await db.insert(oneTimeTokens).values({ userId, purpose, tokenHash: hash, expiresAt });
  return { token, expiresAt };
}

/** Finds a token that may still be used, or throws telling invalid, expired and used apart. */
export async function inspectOneTimeToken(db: DbOrTx, token: string, purpose: Purpose): Promise<TokenRow> {
  const [row] = await db
    .select()
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.tokenHash, hashToken(token)), eq(oneTimeTokens.purpose, purpose)))
    .limit(1);
  const w = wording[purpose];
  if (!row)
    throw new AppError(404, `${w.prefix}_invalid`, `${w.what} is not valid; check it for a typo. ${w.again}`);
  if (row.usedAt) throw new AppError(409, `${w.prefix}_used`, `${w.what} has already been used. ${w.again}`);
  if (row.expiresAt.getTime() <= Date.now()) {
    throw new AppError(410, `${w.prefix}_expired`, `${w.what} has expired. ${w.again}`);
  }
  return row;
}

/** Marks the token used; of two concurrent consumers only one succeeds. */
export async function consumeOneTimeToken(db: DbOrTx, token: string, purpose: Purpose): Promise<TokenRow> {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    )
    .returning();
  return row ?? (await inspectOneTimeToken(db, token, purpose));
}
