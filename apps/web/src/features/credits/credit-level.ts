import type { CreditPlan } from '@atelier/schemas';

export const LOW_CREDITS = 1000;

/**
 * The header's credits indicator (spec section 9): total = remaining monthly + extra; green above 40 %
 * remaining, amber above 10 %, red otherwise; a warning under 1000; an asterisk when extra > 0.
 */
export function creditLevel(plan: CreditPlan) {
  const total = plan.remaining_monthly_credits + plan.extra_credits;
  const capacity = plan.monthly_credits + plan.extra_credits;
  const percent = capacity > 0 ? (total / capacity) * 100 : 0;
  const colour = percent > 40 ? 'green' : percent > 10 ? 'amber' : 'red';
  return { total, percent, colour, low: total < LOW_CREDITS, asterisk: plan.extra_credits > 0 } as const;
}
