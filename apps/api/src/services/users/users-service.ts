import type { UserRows } from '../auth/user-rows';
import { applicationRoles, users, type Db } from '@atelier/db';
import type { CreateUserBody, Role, UpdateProfileBody, UpdateUserBody, User } from '@atelier/schemas';
import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { AccountService } from '../auth/account-service';
import type { Principal } from '../auth/principal';
import { hashPassword } from '../auth/secrets';
import { AppError, conflict, forbidden, notFound } from '../errors';
import { toUser } from './user-view';

const emailTaken = () =>
  conflict('email_taken', 'A user with this email already exists in your organization.');

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export function createUsersService(deps: {
  db: Db;
  accounts: AccountService;
  /** Told when a user's email or role changes or the user is deleted. */
  userRows: Pick<UserRows, 'forget'>;
}) {
  const { db } = deps;

  async function findInOrg(principal: Principal, id: string) {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.id, id), eq(users.organizationId, principal.organizationId)))
      .limit(1);
    if (!row) throw notFound('user');
    return row;
  }

  /**
   * Emails are unique per organization: only the caller's organization is looked at, so an email
   * used in another organization is neither refused nor revealed.
   */
  async function emailInUse(organizationId: string, email: string, exceptId?: string): Promise<boolean> {
    const conditions = [
      eq(users.organizationId, organizationId),
      eq(sql`lower(${users.email})`, email.toLowerCase()),
    ];
    if (exceptId) conditions.push(ne(users.id, exceptId));
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(...conditions))
      .limit(1);
    return Boolean(row);
  }

  async function assertNotLastAdmin(principal: Principal, userId: string) {
    const [row] = await db
      .select({ n: count() })
      .from(users)
      .where(
        and(
          eq(users.organizationId, principal.organizationId),
          eq(users.userRoleId, 'admin'),
          ne(users.id, userId),
        ),
      );
    if ((row?.n ?? 0) === 0) {
      throw conflict('last_admin', 'The organization must keep at least one admin.');
    }
  }

  return {
    findInOrg,

    /** The application roles (reference data), highest rank first. */
    async roles(): Promise<Role[]> {
      const rows = await db.select().from(applicationRoles).orderBy(desc(applicationRoles.rank));
      return rows.map(({ id, name, description }) => ({ id, name, description }));
    },

    async list(principal: Principal): Promise<User[]> {
      const rows = await db
        .select()
        .from(users)
        .where(eq(users.organizationId, principal.organizationId))
        .orderBy(asc(users.email));
      return rows.map(toUser);
    },

    async get(principal: Principal, id: string): Promise<User> {
      if (principal.role === 'user' && id !== principal.userId) throw forbidden();
      return toUser(await findInOrg(principal, id));
    },

    async me(principal: Principal): Promise<User> {
      return toUser(await findInOrg(principal, principal.userId));
    },

    async create(principal: Principal, body: CreateUserBody) {
      if (await emailInUse(principal.organizationId, body.email)) throw emailTaken();
      const passwordHash = body.password ? await hashPassword(body.password) : null;
      let row;
      try {
        [row] = await db
          .insert(users)
          .values({
            organizationId: principal.organizationId,
            email: body.email.toLowerCase(),
            firstName: body.firstName ?? '',
            lastName: body.lastName ?? '',
            jobTitle: body.jobTitle ?? '',
            userRoleId: body.user_role_id,
            languagePreference: body.language_preference ?? 'en',
            passwordHash,
          })
          .returning();
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
      if (!row) throw new Error('insert returned nothing');
      const invitation = passwordHash
        ? { invitation_url: null, invitation_mailed: false }
        : await deps.accounts.invite(row);
      return { user_id: row.id, ...invitation };
    },

    async resendInvitation(principal: Principal, id: string) {
      const row = await findInOrg(principal, id);
      if (row.passwordHash) {
        throw conflict('already_onboarded', 'This user has already completed onboarding.');
      }
      return deps.accounts.invite(row);
    },

    async update(principal: Principal, id: string, body: UpdateUserBody): Promise<void> {
      const row = await findInOrg(principal, id);
      if (body.email && (await emailInUse(principal.organizationId, body.email, id))) throw emailTaken();
      if (body.user_role_id && body.user_role_id !== 'admin' && row.userRoleId === 'admin') {
        await assertNotLastAdmin(principal, id);
      }
      try {
        await db
          .update(users)
          .set({
            ...(body.email !== undefined ? { email: body.email.toLowerCase() } : {}),
            ...(body.firstName !== undefined ? { firstName: body.firstName } : {}),
            ...(body.lastName !== undefined ? { lastName: body.lastName } : {}),
            ...(body.jobTitle !== undefined ? { jobTitle: body.jobTitle } : {}),
            ...(body.user_role_id !== undefined ? { userRoleId: body.user_role_id } : {}),
            ...(body.language_preference !== undefined
              ? { languagePreference: body.language_preference }
              : {}),
            updatedAt: new Date(),
          })
          .where(and(eq(users.id, id), eq(users.organizationId, principal.organizationId)));
      } catch (error) {
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
      await deps.userRows.forget(id);
    },

    async updateProfile(principal: Principal, body: UpdateProfileBody): Promise<void> {
      await db
        .update(users)
        .set({
          ...(body.firstName !== undefined ? { firstName: body.firstName } : {}),
          ...(body.lastName !== undefined ? { lastName: body.lastName } : {}),
          ...(body.jobTitle !== undefined ? { jobTitle: body.jobTitle } : {}),
          ...(body.language_preference !== undefined ? { languagePreference: body.language_preference } : {}),
          updatedAt: new Date(),
        })
        .where(eq(users.id, principal.userId));
    },

    async remove(principal: Principal, id: string): Promise<void> {
      if (id === principal.userId) {
        throw new AppError(409, 'cannot_delete_self', 'You cannot delete your own account.');
      }
      const row = await findInOrg(principal, id);
      if (row.userRoleId === 'admin') await assertNotLastAdmin(principal, id);
      await db.delete(users).where(and(eq(users.id, id), eq(users.organizationId, principal.organizationId)));
      await deps.userRows.forget(id);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
