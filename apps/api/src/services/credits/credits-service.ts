import { creditLedger, creditPlans, type Db } from '@atelier/db';
import type { CreditPlan } from '@atelier/schemas';
import { and, eq, lt, sql } from 'drizzle-orm';
import { AppError } from '../errors';

const monthStart = sql`date_trunc('month', now())`;

export interface ChargeInput {
  amount: number;
  description: string;
  userId?: string | null;
  metadata?: Record<string, unknown>;
}

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

  async function plan(organizationId: string) {
    await resetIfDue(organizationId);
    const [row] = await db.select().from(creditPlans).where(eq(creditPlans.organizationId, organizationId));
    if (!row) throw new AppError(404, 'no_credit_plan', 'This organization has no credit plan.');
    return row;
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
      if (row.remainingMonthlyCredits + row.extraCredits <= 0) {
        throw new AppError(
          402,
          'insufficient_credits',
          'Your organization has no credits left. Ask an administrator to add credits or wait for the monthly renewal.',
        );
      }
    },

    /**
     * Records usage that has happened. A call that already ran is always recorded in full in the
     * ledger, but balances never go below zero.
     */
    async charge(organizationId: string, input: ChargeInput): Promise<CreditPlan> {
      if (!(input.amount >= 0)) throw new RangeError('charge amount must be a non-negative number');
      await resetIfDue(organizationId);
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(creditPlans)
          .where(eq(creditPlans.organizationId, organizationId))
          .for('update');
        if (!before) throw new AppError(404, 'no_credit_plan', 'This organization has no credit plan.');
        const fromMonthly = Math.min(before.remainingMonthlyCredits, input.amount);
        const fromExtra = Math.min(before.extraCredits, input.amount - fromMonthly);
        const [after] = await tx
          .update(creditPlans)
          .set({
            remainingMonthlyCredits: before.remainingMonthlyCredits - fromMonthly,
            extraCredits: before.extraCredits - fromExtra,
            updatedAt: new Date(),
          })
          .where(eq(creditPlans.organizationId, organizationId))
          .returning();
        await tx.insert(creditLedger).values({
          organizationId,
          userId: input.userId ?? null,
          kind: 'usage',
          monthlyDelta: -fromMonthly,
          extraDelta: -fromExtra,
          description: input.description,
          metadata: { ...input.metadata, requested: input.amount },
        });
        if (!after) throw new Error('update returned nothing');
        return {
          plan_type: after.planType,
          monthly_credits: after.monthlyCredits,
          remaining_monthly_credits: after.remainingMonthlyCredits,
          extra_credits: after.extraCredits,
        };
      });
    },

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
