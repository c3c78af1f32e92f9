import { z } from 'zod';
import { password } from './password';

const email = z.email({ error: 'must be a valid email address' }).max(254);

export const loginBody = z.object({ email, password: z.string().min(1).max(256) }).strict();
export type LoginBody = z.infer<typeof loginBody>;

export const tokenAnswer = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
});
export type TokenAnswer = z.infer<typeof tokenAnswer>;

export const refreshBody = z.object({ refresh_token: z.string().min(1).max(512) }).strict();
export const refreshAnswer = tokenAnswer;

export const requestPasswordResetBody = z.object({ email }).strict();
export const setPasswordBody = z.object({ token: z.string().min(1).max(512), password }).strict();

export const onboardingParams = z.object({ id: z.string().min(1).max(512) }).strict();
export const onboardingInfo = z.object({
  status: z.literal('valid'),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  jobTitle: z.string(),
  expires_at: z.string(),
});
export const onboardingCompleteBody = z
  .object({
    token: z.string().min(1).max(512),
    password,
    firstName: z.string().trim().min(1, { error: 'This field is required' }).max(100),
    lastName: z.string().trim().min(1, { error: 'This field is required' }).max(100),
    jobTitle: z.string().trim().max(120).optional(),
    accept_terms: z.literal(true, { error: 'You must accept the Terms of Service and Privacy Policy.' }),
  })
  .strict();
export type OnboardingCompleteBody = z.infer<typeof onboardingCompleteBody>;

export { email as emailSchema };
