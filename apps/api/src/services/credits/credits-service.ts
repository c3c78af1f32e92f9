import { creditLedger, creditPlans, type Db } from '@atelier/db';
import type { CreditPlan } from '@atelier/schemas';
import { and, eq, lt, sql, type SQLWrapper } from 'drizzle-orm';
import { chargeCredits, type ChargeInput } from '@atelier/runtime';
import { AppError } from '../errors';

const monthStart = sql`date_trunc('month', now())`;

export const insufficientCredits = () =>
  new AppError(
    402,
    'insufficient_credits',
    'Your organization has no credits left. Ask an administrator to add credits or wait for the monthly renewal.',
  );

/**
 * What an organization can still spend, as one SQL expression (a new month counts as renewed): lets a
 * hot path check credits inside a query it already makes.
 */
export const creditsLeftSql = (organizationId: SQLWrapper) =>
  sql<string>`(select case when cp.period_start < ${monthStart} then cp.monthly_credits
                      else cp.remaining_monthly_credits end + cp.extra_credits
               from credit_plans cp where cp.organization_id = ${organizationId})`;

/**
 * An organization's credits: a monthly allowance that resets on the first of each month, plus
 * extra credits that do not expire. Usage takes from the monthly allowance first.
 */
export function createCreditsService(deps: { db: Db }) {
  const { db } = deps;

  /** Applies the monthly reset when a new month has begun; safe under concurrency (one wins). */
  async function resetIfDue(organizationId: string): Promise<void> {
    await db.transaction(async (tx) => {
      const [reset] = await tx
        .update(creditPlans)
        .set({
          remainingMonthlyCredits: sql`${creditPlans.monthlyCredits}`,
          periodStart: monthStart,
          updatedAt: new Date(),
        })
        .where(and(eq(creditPlans.organizationId, organizationId), lt(creditPlans.periodStart, monthStart)))
        .returning();
      if (reset) {
        await tx.insert(creditLedger).values({
          organizationId,
          kind: 'monthly_reset',
          monthlyDelta: reset.monthlyCredits,
          extraDelta: 0,
          description: 'Monthly credits renewed',
        });
      }
    });
  }

  /** One read on the hot path; the reset transaction runs only when a new month has begun. */
  async function plan(organizationId: string) {
    const [row] = await db
      .select({ plan: creditPlans, due: sql<boolean>`${creditPlans.periodStart} < ${monthStart}` })
      .from(creditPlans)
      .where(eq(creditPlans.organizationId, organizationId));
    if (!row) throw new AppError(404, 'no_credit_plan', 'This organization has no credit plan.');
    if (!row.due) return row.plan;
    await resetIfDue(organizationId);
    const [fresh] = await db.select().from(creditPlans).where(eq(creditPlans.organizationId, organizationId));
    return fresh ?? row.plan;
  }

  return {
    async getPlan(organizationId: string): Promise<CreditPlan> {
      const row = await plan(organizationId);
      return {
        plan_type: row.planType,
        monthly_credits: row.monthlyCredits,
        remaining_monthly_credits: row.remainingMonthlyCredits,
        extra_credits: row.extraCredits,
      };
    },

    /** Refuses a paid call before it starts when nothing is left (402). */
    async ensureAvailable(organizationId: string): Promise<void> {
      const row = await plan(organizationId);
      if (row.remainingMonthlyCredits + row.extraCredits <= 0) throw insufficientCredits();
    },

    /**
     * Records usage that has happened. A call that already ran is always recorded in full in the
     * ledger, but balances never go below zero.
     */
    /** Records usage that has happened (see chargeCredits). */
    charge: (organizationId: string, input: ChargeInput): Promise<CreditPlan> =>
      chargeCredits(db, organizationId, input),

    /** Adds extra credits (operator action, from the CLI). */
    async grantExtra(organizationId: string, amount: number, description: string): Promise<void> {
      await db.transaction(async (tx) => {
        const updated = await tx
          .update(creditPlans)
          .set({ extraCredits: sql`${creditPlans.extraCredits} + ${amount}`, updatedAt: new Date() })
          .where(eq(creditPlans.organizationId, organizationId))
          .returning();
        if (updated.length === 0)
          throw new AppError(404, 'no_credit_plan', 'This organization has no credit plan.');
        await tx.insert(creditLedger).values({
          organizationId,
          kind: 'grant',
          monthlyDelta: 0,
          extraDelta: amount,
          description,
        });
      });
    },
  };
}

export type CreditsService = ReturnType<typeof createCreditsService>;
