import { z } from 'zod';

export const PASSWORD_MIN_LENGTH = 8;
const MAX = 256;

/** The spec's policy: 8+ characters with an uppercase, a lowercase, a digit and a special character. */
export function passwordProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length < PASSWORD_MIN_LENGTH) problems.push(`at least ${PASSWORD_MIN_LENGTH} characters`);
  if (!/[A-Z]/.test(value)) problems.push('an uppercase letter');
  if (!/[a-z]/.test(value)) problems.push('a lowercase letter');
  if (!/[0-9]/.test(value)) problems.push('a number');
  if (!/[^A-Za-z0-9]/.test(value)) problems.push('a special character');
  return problems;
}

export const password = z
  .string()
  .max(MAX, { error: `must be at most ${MAX} characters` })
  .superRefine((value, ctx) => {
    const problems = passwordProblems(value);
    if (problems.length > 0) {
      ctx.addIssue({ code: 'custom', message: `Password needs ${problems.join(', ')}.` });
    }
  });
