import { creditLedger, creditPlans, type Db } from '@atelier/db';
import { chargeCredits, creditPlan, creditsLeftSql, renewCredits, type ChargeInput } from '@atelier/metering';
import type { CreditPlan, CreditUsage } from '@atelier/schemas';
import { and, eq, gte, sql } from 'drizzle-orm';
import { AppError } from '../errors';

export { creditsLeftSql };

const DAY_MS = 86_400_000;

export const insufficientCredits = () =>
  new AppError(
    402,
    'insufficient_credits',
    'Your organization has no credits left. Ask an administrator to add credits or wait for the monthly renewal.',
  );

/**
 * An organization's credits: a monthly allowance that resets on the first of each month, plus
 * extra credits that do not expire. Usage takes from the monthly allowance first.
 */
export function createCreditsService(deps: { db: Db }) {
  const { db } = deps;

  /** One read on the hot path; the renewal (one statement, @atelier/metering) only when a new month has begun. */
  async function plan(organizationId: string): Promise<CreditPlan> {
    const { due, ...current } = await creditPlan(db, organizationId);
    if (due) await renewCredits(db, organizationId);
    return current;
  }

  return {
    async getPlan(organizationId: string): Promise<CreditPlan> {
      return plan(organizationId);
    },

    /** The credits used over the last 30 days (or since the first charge) and their daily average. */
    async usage(organizationId: string): Promise<CreditUsage> {
      const WINDOW = 30;
      const since = new Date(Date.now() - WINDOW * DAY_MS);
      const [row] = await db
        .select({
          used: sql<string>`coalesce(-sum(${creditLedger.monthlyDelta} + ${creditLedger.extraDelta}), 0)`,
          first: sql<string | null>`min(${creditLedger.createdAt})`,
        })
        .from(creditLedger)
        .where(
          and(
            eq(creditLedger.organizationId, organizationId),
            eq(creditLedger.kind, 'usage'),
            gte(creditLedger.createdAt, since),
          ),
        );
      const used = Math.max(0, Number(row?.used ?? 0));
      const first = row?.first ? new Date(row.first).getTime() : Date.now();
      const days = Math.min(WINDOW, Math.max(1, Math.ceil((Date.now() - first) / DAY_MS)));
      return { window_days: days, used, daily_average: used / days };
    },

    /** Refuses a paid call before it starts when nothing is left (402). */
    async ensureAvailable(organizationId: string): Promise<void> {
      const row = await plan(organizationId);
      if (row.remaining_monthly_credits + row.extra_credits <= 0) throw insufficientCredits();
    },

    /** Records usage that has happened (see chargeCredits in @atelier/metering). */
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
