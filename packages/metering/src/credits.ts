import { queryRows, statementRows, stmt, verbatim, type Db, type Statement } from '@atelier/db';
import type { CreditPlan } from '@atelier/schemas';
import { sql, type SQLWrapper } from 'drizzle-orm';
import { MeteringError } from './errors';

/**
 * Credits, in one place: what an organization can still spend (the check), the monthly renewal and
 * the charge. The renewal exists once, as SQL fragments below: the check counts a new month as renewed,
 * and the charge (or `renewCredits`) writes the renewal, with its ledger row, in the statement that
 * needs it. Nothing here takes a transaction: each write is one statement that locks the plan row only
 * while it runs, so concurrent answers never queue on a held transaction.
 */

const MONTH_START = "date_trunc('month', now())";
/** A plan (by its name or alias in the query) whose period began before this month is due for its renewal. */
const due = (plan: string) => `${plan}.period_start < ${MONTH_START}`;
/** The monthly credits left, counting a due renewal as done. */
const monthlyLeft = (plan: string) =>
  `case when ${due(plan)} then ${plan}.monthly_credits else ${plan}.remaining_monthly_credits end`;

export interface ChargeInput {
  amount: number;
  description: string;
  userId?: string | null;
  metadata?: Record<string, unknown>;
}

/**
 * What an organization can still spend, as one SQL expression (a new month counts as renewed): lets a
 * hot path check credits inside a query it already makes.
 */
export const creditsLeftSql = (organizationId: SQLWrapper) =>
  sql<string>`(select ${sql.raw(monthlyLeft('cp'))} + cp.extra_credits
               from credit_plans cp where cp.organization_id = ${organizationId})`;

/**
 * The charges of one organization as named CTEs (`credit_use`, `credit_old`, `credit_plan`,
 * `credit_renewal`, `credit_usage`), to join a statement that writes something else too (answers,
 * inference logs): a new month renews the allowance first (with its ledger row); then the charges are
 * taken in their order, each from the monthly credits first, then from the extra ones, and each writes
 * its usage ledger row (its part of each balance: what the balance held before it, less what it holds
 * after it). A call that ran is recorded in full in the ledger (`requested`), balances never go below
 * zero. Without charges, only the renewal (when due). `credit_plan` returns the plan. The text is the
 * same for any number of charges (they are one JSON value).
 */
export function creditCtes(organizationId: string, usages: readonly ChargeInput[]): Statement {
  const charges = usages.map((usage, n) => {
    if (!(usage.amount >= 0)) throw new RangeError('charge amount must be a non-negative number');
    return {
      n,
      amount: usage.amount,
      user_id: usage.userId ?? null,
      description: usage.description,
      metadata: { ...usage.metadata, requested: usage.amount },
    };
  });
  // What charges up to an amount take from each balance (monthly first, then extra): the plan loses
  // what all of them take; each charge's ledger row what it adds to those ahead of it (`before`).
  const monthlyTaken = (upTo: string) => `least(o.m, ${upTo})`;
  const extraTaken = (upTo: string) => `least(o.e, greatest(${upTo} - o.m, 0))`;
  return stmt`credit_use as (
      select u.*, coalesce(sum(u.amount) over (order by u.n rows between unbounded preceding and 1 preceding), 0) as before
      from jsonb_to_recordset(${JSON.stringify(charges)}::jsonb)
        as u(n int, amount numeric, user_id uuid, description text, metadata jsonb)
    ), credit_old as (
      select organization_id, monthly_credits, ${verbatim(due('credit_plans'))} as due,
             ${verbatim(monthlyLeft('credit_plans'))} as m, extra_credits as e,
             (select coalesce(sum(amount), 0) from credit_use) as total, (select count(*) from credit_use) as uses
      from credit_plans where organization_id = ${organizationId}::uuid for update
    ), credit_plan as (
      update credit_plans p
      set remaining_monthly_credits = o.m - ${verbatim(monthlyTaken('o.total'))},
          extra_credits = p.extra_credits - ${verbatim(extraTaken('o.total'))},
          period_start = case when o.due then ${verbatim(MONTH_START)} else p.period_start end,
          updated_at = now()
      from credit_old o where p.organization_id = o.organization_id and (o.uses > 0 or o.due)
      returning p.plan_type, p.monthly_credits, p.remaining_monthly_credits, p.extra_credits
    ), credit_renewal as (
      insert into credit_ledger (organization_id, kind, monthly_delta, extra_delta, description, created_at)
      select organization_id, 'monthly_reset', monthly_credits, 0, 'Monthly credits renewed',
             now() - interval '1 millisecond'
      from credit_old where due
    ), credit_usage as (
      insert into credit_ledger (organization_id, user_id, kind, monthly_delta, extra_delta, description, metadata)
      select o.organization_id, u.user_id, 'usage',
             ${verbatim(`${monthlyTaken('u.before')} - ${monthlyTaken('u.before + u.amount')}`)},
             ${verbatim(`${extraTaken('u.before')} - ${extraTaken('u.before + u.amount')}`)},
             u.description, u.metadata
      from credit_old o cross join credit_use u
    )`;
}

interface PlanRow {
  plan_type: string;
  monthly_credits: string;
  remaining_monthly_credits: string;
  extra_credits: string;
}

const toPlan = (row: PlanRow): CreditPlan => ({
  plan_type: row.plan_type,
  monthly_credits: Number(row.monthly_credits),
  remaining_monthly_credits: Number(row.remaining_monthly_credits),
  extra_credits: Number(row.extra_credits),
});

const noPlan = () => new MeteringError(404, 'no_credit_plan', 'This organization has no credit plan.');

/** Records usage that has happened, in one statement (see `creditCtes`); returns the plan after it. */
export async function chargeCredits(db: Db, organizationId: string, input: ChargeInput): Promise<CreditPlan> {
  const [after] = await statementRows<PlanRow>(
    db,
    stmt`with ${creditCtes(organizationId, [input])} select * from credit_plan`,
  );
  if (!after) throw noPlan();
  return toPlan(after);
}

/** Applies the monthly renewal when a new month has begun, in one statement; safe under concurrency. */
export async function renewCredits(db: Db, organizationId: string): Promise<void> {
  await statementRows(db, stmt`with ${creditCtes(organizationId, [])} select 1 from credit_plan`);
}

/** The plan as it stands, a due renewal counted (not written): one read. */
export async function creditPlan(db: Db, organizationId: string): Promise<CreditPlan & { due: boolean }> {
  const [row] = await queryRows<PlanRow & { due: boolean }>(
    db,
    sql`select plan_type, monthly_credits, ${sql.raw(monthlyLeft('credit_plans'))} as remaining_monthly_credits,
               extra_credits, ${sql.raw(due('credit_plans'))} as due
        from credit_plans where organization_id = ${organizationId}`,
  );
  if (!row) throw noPlan();
  return { ...toPlan(row), due: row.due };
}
