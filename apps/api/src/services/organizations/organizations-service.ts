import { randomBytes } from 'node:crypto';
import { creditPlans, organizations, users, type Db } from '@atelier/db';
import { passwordProblems } from '@atelier/schemas';
import { count, sql } from 'drizzle-orm';
import { hashPassword } from '../auth/secrets';
import { AppError } from '../errors';

export interface NewOrganization {
  name: string;
  adminEmail: string;
  /** Generated when absent; the caller shows it once. */
  adminPassword?: string | undefined;
  /** "First Last"; without it the name comes from the email (see adminNameOf). */
  adminName?: string | undefined;
  monthlyCredits: number;
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * The first admin's first and last names: from ADMIN_NAME ("Jane Doe": the first word, then the rest),
 * else from the email's local part ("jane.doe@…" gives Jane Doe, "admin@…" gives Admin). Both within the
 * profile's limits, so the admin can save their profile as it is.
 */
export function adminNameOf(email: string, name?: string): { firstName: string; lastName: string } {
  const given = name?.trim().split(/\s+/).filter(Boolean) ?? [];
  const words =
    given.length > 0
      ? given
      : (email.split('@')[0] ?? '')
          .split(/[._+-]+/)
          .filter((w) => /\p{L}/u.test(w))
          .map(capitalized);
  const [first = 'Admin', ...rest] = words;
  return { firstName: first.slice(0, 100), lastName: rest.join(' ').slice(0, 100) };
}

/** A password that satisfies the policy: 24 random characters plus one of each required class. */
export function generatePassword(): string {
  return `${randomBytes(18).toString('base64url')}aA1!`;
}

export async function createOrganization(db: Db, input: NewOrganization) {
  const password = input.adminPassword ?? generatePassword();
  const problems = passwordProblems(password);
  if (problems.length > 0) {
    throw new AppError(422, 'weak_password', `The admin password needs ${problems.join(', ')}.`);
  }
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    // Emails are unique per organization, so a new organization's admin cannot collide.
    const [org] = await tx.insert(organizations).values({ name: input.name }).returning();
    if (!org) throw new Error('insert returned nothing');
    await tx.insert(creditPlans).values({
      organizationId: org.id,
      monthlyCredits: input.monthlyCredits,
      remainingMonthlyCredits: input.monthlyCredits,
      periodStart: sql`date_trunc('month', now())`,
    });
    const [admin] = await tx
      .insert(users)
      .values({
        organizationId: org.id,
        email: input.adminEmail.toLowerCase(),
        ...adminNameOf(input.adminEmail, input.adminName),
        userRoleId: 'admin',
        passwordHash,
      })
      .returning();
    if (!admin) throw new Error('insert returned nothing');
    return {
      organizationId: org.id,
      adminId: admin.id,
      adminEmail: admin.email,
      password,
      generated: !input.adminPassword,
    };
  });
}

/** First start: an installation with no user gets an organization and its admin. */
export async function bootstrapFirstAdmin(
  db: Db,
  input: Omit<NewOrganization, 'adminEmail'> & { adminEmail: string | undefined },
) {
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return null;
  return createOrganization(db, { ...input, adminEmail: input.adminEmail ?? 'admin@atelier.local' });
}
