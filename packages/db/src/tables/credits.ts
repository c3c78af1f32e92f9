import { index, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { users } from './users';

const credits = (column: string) => numeric(column, { precision: 18, scale: 4, mode: 'number' });

export const creditPlans = pgTable('credit_plans', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  planType: text('plan_type').notNull().default('self-hosted'),
  monthlyCredits: credits('monthly_credits').notNull(),
  remainingMonthlyCredits: credits('remaining_monthly_credits').notNull(),
  extraCredits: credits('extra_credits').notNull().default(0),
  /** First day of the month the remaining monthly credits belong to; older means a reset is due. */
  periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every change to an organization's credits: usage (negative), monthly resets and grants. */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ['usage', 'monthly_reset', 'grant'] }).notNull(),
    monthlyDelta: credits('monthly_delta').notNull(),
    extraDelta: credits('extra_delta').notNull(),
    description: text('description').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('credit_ledger_org_created_idx').on(t.organizationId, t.createdAt)],
);
