/**
 * The lengths a person's profile fields may have (the API's rules, `users.ts`, and the profile form's).
 * Names and job title are optional: a seeded admin may have no last name.
 */
export const PROFILE_LIMITS = { firstName: 100, lastName: 100, jobTitle: 120 } as const;
export type ProfileField = keyof typeof PROFILE_LIMITS;

/** The fields over their limit, with that limit. */
export function profileProblems(
  profile: Partial<Record<ProfileField, string>>,
): Partial<Record<ProfileField, number>> {
  const problems: Partial<Record<ProfileField, number>> = {};
  for (const [field, max] of Object.entries(PROFILE_LIMITS) as [ProfileField, number][]) {
    if ((profile[field] ?? '').trim().length > max) problems[field] = max;
  }
  return problems;
}
