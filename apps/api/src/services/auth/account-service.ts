import type { UserRows } from './user-rows';
import { organizations, users, type Db } from '@atelier/db';
import type { InvitationAnswer, OnboardingCompleteBody, TokenAnswer } from '@atelier/schemas';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Mailer } from '../mail/mailer';
import { consumeOneTimeToken, inspectOneTimeToken, issueOneTimeToken } from './one-time-tokens';
import { hashPassword } from './secrets';
import { bumpedTokenVersion, revokeAllRefreshTokens, type SessionService } from './session-service';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface AccountServiceDeps {
  db: Db;
  mailer: Mailer;
  sessions: SessionService;
  webUrl: string;
  onMailError(error: unknown): void;
  /** Told when a user's token version moves (a new password). */
  userRows: Pick<UserRows, 'forget'>;
}

/** Password reset and onboarding: the flows that reach a user by a link in a mail. */
export function createAccountService(deps: AccountServiceDeps) {
  const { db } = deps;

  return {
    invitationUrl: (token: string) => `${deps.webUrl}/onboarding/${token}`,

    /**
     * Issues a fresh invitation for a user who has not set a password, and mails it. The link is
     * answered to the admin only when no mail server is set (the mail went to the server log).
     */
    async invite(user: { id: string; email: string; firstName: string }): Promise<InvitationAnswer> {
      const { token } = await issueOneTimeToken(db, user.id, 'onboarding', INVITATION_TTL_MS);
      const url = this.invitationUrl(token);
      await deps.mailer.send({
        to: user.email,
        subject: 'You are invited to Atelier',
        text: `Hello ${user.firstName || user.email},\n\nYou have been invited to Atelier. Choose your password and complete your profile here (valid 7 days):\n${url}\n`,
      });
      const mailed = deps.mailer.delivers === true;
      return { invitation_url: mailed ? null : url, invitation_mailed: mailed };
    },

    /**
     * Always succeeds from the caller's point of view, so the answer says nothing about which emails
     * have accounts. The mails are sent in the background for the same reason (equal timings).
     * Emails are unique per organization: every account with this email (and a password) gets its
     * own link, and each mail names the organization of its account.
     */
    async requestPasswordReset(email: string): Promise<void> {
      const accounts = await db
        .select({ id: users.id, email: users.email, organization: organizations.name })
        .from(users)
        .innerJoin(organizations, eq(organizations.id, users.organizationId))
        .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), isNotNull(users.passwordHash)));
      for (const account of accounts) {
        const { token } = await issueOneTimeToken(db, account.id, 'password_reset', RESET_TOKEN_TTL_MS);
        const url = `${deps.webUrl}/reset-password/${token}`;
        void deps.mailer
          .send({
            to: account.email,
            subject: `Reset your Atelier password (${account.organization})`,
            text: `Someone asked to reset the password of your Atelier account in the organization "${account.organization}". If it was you, choose a new password here (valid one hour):\n${url}\n\nIf it was not you, ignore this mail.`,
          })
          .catch(deps.onMailError);
      }
    },

    /** Sets the new password, ends every session and access token of the user, in one transaction. */
    async setPassword(token: string, password: string): Promise<void> {
      const passwordHash = await hashPassword(password);
      const userId = await db.transaction(async (tx) => {
        const used = await consumeOneTimeToken(tx, token, 'password_reset');
        await tx
          .update(users)
          .set({ passwordHash, tokenVersion: bumpedTokenVersion, updatedAt: new Date() })
          .where(eq(users.id, used.userId));
        await revokeAllRefreshTokens(tx, used.userId);
        return used.userId;
      });
      await deps.userRows.forget(userId);
    },

    async inspectInvitation(token: string) {
      const row = await inspectOneTimeToken(db, token, 'onboarding');
      const [user] = await db.select().from(users).where(eq(users.id, row.userId)).limit(1);
      if (!user) throw new Error('invitation without user'); // cascade makes this impossible
      return {
        status: 'valid' as const,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        jobTitle: user.jobTitle,
        expires_at: row.expiresAt.toISOString(),
      };
    },

    /** Sets the invited user's password and profile, then signs them in. */
    async completeOnboarding(body: OnboardingCompleteBody): Promise<TokenAnswer> {
      const passwordHash = await hashPassword(body.password);
      const user = await db.transaction(async (tx) => {
        const used = await consumeOneTimeToken(tx, body.token, 'onboarding');
        const [updated] = await tx
          .update(users)
          .set({
            passwordHash,
            // Setting a password ends any access token issued before, like a reset does.
            tokenVersion: bumpedTokenVersion,
            firstName: body.firstName,
            lastName: body.lastName,
            ...(body.jobTitle !== undefined ? { jobTitle: body.jobTitle } : {}),
            updatedAt: new Date(),
          })
          .where(eq(users.id, used.userId))
          .returning();
        if (!updated) throw new Error('invitation without user');
        await revokeAllRefreshTokens(tx, updated.id);
        return updated;
      });
      await deps.userRows.forget(user.id);
      return deps.sessions.startSession(user);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
