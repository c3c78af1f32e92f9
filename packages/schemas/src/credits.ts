import { z } from 'zod';

export const creditPlan = z.object({
  plan_type: z.string(),
  monthly_credits: z.number(),
  remaining_monthly_credits: z.number(),
  extra_credits: z.number(),
});
export type CreditPlan = z.infer<typeof creditPlan>;

/**
 * What the credits indicator's details show besides the plan (spec section 3: total, remaining,
 * runway in days, daily average): the usage of the last days.
 */
export const creditUsage = z.object({
  /** The days averaged over: 30, or fewer for an organization with a shorter history. */
  window_days: z.number().int(),
  used: z.number(),
  daily_average: z.number(),
});
export type CreditUsage = z.infer<typeof creditUsage>;
