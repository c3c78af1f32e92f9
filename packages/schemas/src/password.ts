import { z } from 'zod';
import { passwordProblems } from './password-rules';

const MAX = 256;

export const password = z
  .string()
  .max(MAX, { error: `must be at most ${MAX} characters` })
  .superRefine((value, ctx) => {
    const problems = passwordProblems(value);
    if (problems.length > 0) {
      ctx.addIssue({ code: 'custom', message: `Password needs ${problems.join(', ')}.` });
    }
  });
