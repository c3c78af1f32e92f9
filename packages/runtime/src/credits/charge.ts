import { queryRows, type Db } from '@atelier/db';
import type { CreditPlan } from '@atelier/schemas';
import { sql } from 'drizzle-orm';
import { RuntimeError } from '../errors';

const monthStart = sql`date_trunc('month', now())`;

export interface ChargeInput {
  amount: number;
  description: string;
  userId?: string | null;
  metadata?: Record<string, unknown>;
}

/**
 * Records usage that has happened, in one statement: the row is locked only while it runs, so
 * concurrent answers never queue on a held transaction. A new month renews the allowance first (with
 * its ledger row); then monthly credits go first, then extra, and the usage ledger row is written with
 * it. A call that already ran is always recorded in full in the ledger; balances never go below zero.
 */
export async function chargeCredits(db: Db, organizationId: string, input: ChargeInput): Promise<CreditPlan> {
  if (!(input.amount >= 0)) throw new RangeError('charge amount must be a non-negative number');
  const amount = input.amount;
  const rows = await queryRows<{
    plan_type: string;
    monthly_credits: string;
    remaining_monthly_credits: string;
    extra_credits: string;
  }>(
    db,
    sql`with old as (
              select organization_id, monthly_credits, period_start < ${monthStart} as due,
                     case when period_start < ${monthStart} then monthly_credits
                          else remaining_monthly_credits end as m,
                     extra_credits as e
              from credit_plans where organization_id = ${organizationId} for update
            ), upd as (
              update credit_plans p
              set remaining_monthly_credits = old.m - least(old.m, ${amount}::numeric),
                  extra_credits = p.extra_credits - least(old.e, greatest(${amount}::numeric - old.m, 0)),
                  period_start = case when old.due then ${monthStart} else p.period_start end,
                  updated_at = now()
              from old where p.organization_id = old.organization_id
              returning p.plan_type, p.monthly_credits, p.remaining_monthly_credits, p.extra_credits
            ), renewal as (
              insert into credit_ledger (organization_id, kind, monthly_delta, extra_delta, description, created_at)
              select organization_id, 'monthly_reset', monthly_credits, 0, 'Monthly credits renewed',
                     now() - interval '1 millisecond'
              from old where due
            ), ledger as (
              insert into credit_ledger (organization_id, user_id, kind, monthly_delta, extra_delta, description, metadata)
              select old.organization_id, ${input.userId ?? null}, 'usage', -least(old.m, ${amount}::numeric),
                     -least(old.e, greatest(${amount}::numeric - old.m, 0)), ${input.description},
                     ${JSON.stringify({ ...input.metadata, requested: amount })}::jsonb
              from old
            )
            select * from upd`,
  );
  const after = rows[0];
  if (!after) throw new RuntimeError(404, 'no_credit_plan', 'This organization has no credit plan.');
  return {
    plan_type: after.plan_type,
    monthly_credits: Number(after.monthly_credits),
    remaining_monthly_credits: Number(after.remaining_monthly_credits),
    extra_credits: Number(after.extra_credits),
  };
}
