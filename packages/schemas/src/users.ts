import { z } from 'zod';
import { language, uuid } from './common';
import { emailSchema } from './auth';
import { password } from './password';
import { appRoleId, role } from './roles';
import { PROFILE_LIMITS } from './constants';

export const userStatus = z.enum(['active', 'invited']);

export const user = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  jobTitle: z.string(),
  user_role_id: appRoleId,
  user_role: role,
  organization_id: z.string(),
  language_preference: language,
  status: userStatus,
  created_at: z.string(),
});
export type User = z.infer<typeof user>;

/** A member of a workspace, as listed by GET /users/workspace/{id}. */
export const workspaceMember = user.extend({ workspace_role_id: z.string() });

const personName = z.string().trim().max(PROFILE_LIMITS.firstName);
const jobTitle = z.string().trim().max(PROFILE_LIMITS.jobTitle);

export const createUserBody = z
  .object({
    email: emailSchema,
    firstName: personName.optional(),
    lastName: personName.optional(),
    jobTitle: jobTitle.optional(),
    user_role_id: appRoleId,
    language_preference: language.optional(),
    /** Optional: without it the user receives an invitation and chooses one. */
    password: password.optional(),
  })
  .strict();
export type CreateUserBody = z.infer<typeof createUserBody>;

/**
 * An invitation: mailed when a mail server is set; otherwise written to the server log, and its link
 * answered to the admin (who shares it themselves).
 */
export const invitationAnswer = z.object({
  invitation_url: z.string().nullable(),
  invitation_mailed: z.boolean(),
});
export type InvitationAnswer = z.infer<typeof invitationAnswer>;

export const createUserAnswer = invitationAnswer.extend({ user_id: z.string() });

export const updateUserBody = z
  .object({
    email: emailSchema.optional(),
    firstName: personName.optional(),
    lastName: personName.optional(),
    jobTitle: jobTitle.optional(),
    user_role_id: appRoleId.optional(),
    language_preference: language.optional(),
  })
  .strict();
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const updateProfileBody = z
  .object({
    firstName: personName.optional(),
    lastName: personName.optional(),
    jobTitle: jobTitle.optional(),
    language_preference: language.optional(),
  })
  .strict();
export type UpdateProfileBody = z.infer<typeof updateProfileBody>;

export const userAnswer = z.object({ user });
export const usersAnswer = z.object({ users: z.array(user) });
export const workspaceMembersAnswer = z.object({ users: z.array(workspaceMember) });
export const userIdParams = z.object({ id: uuid }).strict();
