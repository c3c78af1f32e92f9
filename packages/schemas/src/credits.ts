import { z } from 'zod';

export const creditPlan = z.object({
  plan_type: z.string(),
  monthly_credits: z.number(),
  remaining_monthly_credits: z.number(),
  extra_credits: z.number(),
});
export type CreditPlan = z.infer<typeof creditPlan>;
