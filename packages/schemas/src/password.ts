import { z } from 'zod';
import { PASSWORD_RULES } from './password-rules';

const MAX = 256;

export const password = z
  .string()
  .max(MAX, { error: `must be at most ${MAX} characters` })
  .superRefine((value, ctx) => {
    const missing = PASSWORD_RULES.filter((rule) => !rule.test(value));
    if (missing.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `Password needs ${missing.map((rule) => rule.text).join(', ')}.`,
        // For clients that word it themselves: the ids of the rules it breaks.
        params: { code: 'weak_password', missing: missing.map((rule) => rule.id) },
      });
    }
  });
