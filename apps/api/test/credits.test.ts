import { creditLedger, creditPlans } from '@atelier/db';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, startTestApp, type TestApp } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('credits', () => {
  it('GET /credits/plan answers the spec fields to every role', async () => {
    const org = await createOrg(t.app);
    for (const actor of [org.admin, await org.member('creator'), await org.member('user')]) {
      const res = await call(t.app, 'GET', '/credits/plan', { token: actor.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        plan_type: 'self-hosted',
        monthly_credits: 1000,
        remaining_monthly_credits: 1000,
        extra_credits: 0,
      });
    }
  });

  it('usage takes monthly credits first, then extra; every charge is in the ledger', async () => {
    const org = await createOrg(t.app);
    const credits = t.app.services.credits;
    await credits.grantExtra(org.id, 50, 'test grant');
    await credits.charge(org.id, { amount: 999.5, description: 'chat', userId: org.admin.id });
    const plan = await credits.charge(org.id, { amount: 10.25, description: 'chat' });
    expect(plan).toMatchObject({ remaining_monthly_credits: 0, extra_credits: 40.25 });
    const rows = await t.app.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.organizationId, org.id))
      .orderBy(asc(creditLedger.createdAt));
    expect(rows.map((r) => [r.kind, r.monthlyDelta, r.extraDelta])).toEqual([
      ['grant', 0, 50],
      ['usage', -999.5, 0],
      ['usage', -0.5, -9.75],
    ]);
    expect(rows[1]?.userId).toBe(org.admin.id);
  });

  it('refuses before a call with 402 when nothing is left; a charge never goes below zero', async () => {
    const org = await createOrg(t.app);
    const credits = t.app.services.credits;
    await credits.ensureAvailable(org.id);
    const plan = await credits.charge(org.id, { amount: 5000, description: 'a long answer' });
    expect(plan).toMatchObject({ remaining_monthly_credits: 0, extra_credits: 0 });
    await expect(credits.ensureAvailable(org.id)).rejects.toMatchObject({
      status: 402,
      code: 'insufficient_credits',
    });
    const [usage] = await t.app.db.select().from(creditLedger).where(eq(creditLedger.organizationId, org.id));
    expect(usage?.metadata).toMatchObject({ requested: 5000 });
  });

  it('concurrent charges are all counted', async () => {
    const org = await createOrg(t.app);
    const credits = t.app.services.credits;
    await Promise.all(
      Array.from({ length: 20 }, () => credits.charge(org.id, { amount: 7, description: 'x' })),
    );
    expect((await credits.getPlan(org.id)).remaining_monthly_credits).toBe(860);
  });

  it('monthly credits are renewed once when a new month begins', async () => {
    const org = await createOrg(t.app);
    const credits = t.app.services.credits;
    await credits.charge(org.id, { amount: 400, description: 'x' });
    await t.app.db
      .update(creditPlans)
      .set({ periodStart: new Date(Date.UTC(2020, 0, 1)) })
      .where(eq(creditPlans.organizationId, org.id));
    const plans = await Promise.all([credits.getPlan(org.id), credits.getPlan(org.id)]);
    expect(plans.map((p) => p.remaining_monthly_credits)).toEqual([1000, 1000]);
    const resets = await t.app.db.select().from(creditLedger).where(eq(creditLedger.organizationId, org.id));
    expect(resets.filter((r) => r.kind === 'monthly_reset')).toHaveLength(1);
  });

  it('a charge in a new month renews first, once, even when charges race', async () => {
    const org = await createOrg(t.app);
    const credits = t.app.services.credits;
    await credits.charge(org.id, { amount: 900, description: 'x' });
    await t.app.db
      .update(creditPlans)
      .set({ periodStart: new Date(Date.UTC(2020, 0, 1)) })
      .where(eq(creditPlans.organizationId, org.id));
    await Promise.all(
      Array.from({ length: 5 }, () => credits.charge(org.id, { amount: 10, description: 'y' })),
    );
    expect((await credits.getPlan(org.id)).remaining_monthly_credits).toBe(950);
    const ledger = await t.app.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.organizationId, org.id))
      .orderBy(creditLedger.createdAt);
    expect(ledger.map((r) => r.kind)).toEqual(['usage', 'monthly_reset', ...Array(5).fill('usage')]);
  });
});
