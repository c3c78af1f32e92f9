import { randomUUID } from 'node:crypto';
import {
  creditLedger,
  creditPlans,
  inferenceLogs,
  models,
  organizations,
  providers,
  workspaces,
  type Db,
} from '@atelier/db';
import { createAdapters, ProviderError, type ChatModel } from '@atelier/providers';
import type { ModelType } from '@atelier/schemas';
import { sharedTestDatabase, startFakeProvider, type FakeProvider } from '@atelier/testkit';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chargeCredits,
  creditPlan,
  inferenceLogRow,
  meteredCall,
  meteredChat,
  renewCredits,
  writeMetered,
  type MeterScope,
  type MeterTarget,
} from '../src';

/** Metered calls on the shared test database against the fake provider, one organization per test. */
const KEY = 'sk-metering-test';
let db: Db;
let fake: FakeProvider;

beforeAll(async () => {
  db = (await sharedTestDatabase()).db;
  fake = await startFakeProvider({ apiKey: KEY });
});
afterAll(async () => {
  await fake.close();
});

async function organization(periodStart = new Date()) {
  const [org] = await db.insert(organizations).values({ name: 'Metering' }).returning();
  const [ws] = await db.insert(workspaces).values({ organizationId: org!.id, name: 'W' }).returning();
  await db.insert(creditPlans).values({
    organizationId: org!.id,
    monthlyCredits: 100,
    remainingMonthlyCredits: 40,
    periodStart,
  });
  const [provider] = await db
    .insert(providers)
    .values({
      organizationId: org!.id,
      workspaceId: ws!.id,
      name: 'Fake',
      kind: 'openai_compatible',
      baseUrl: `${fake.url}/v1`,
    })
    .returning();
  const model = async (modelName: string, modelType: ModelType, pricing = {}) => {
    const [row] = await db
      .insert(models)
      .values({
        organizationId: org!.id,
        workspaceId: ws!.id,
        providerId: provider!.id,
        name: modelName,
        modelName,
        modelType,
        ...pricing,
      })
      .returning();
    return { model: row!, provider: provider! } satisfies MeterTarget;
  };
  const scope: MeterScope = {
    organizationId: org!.id,
    workspaceId: ws!.id,
    userId: null,
    chatbotId: null,
    chatbotName: 'Tests',
    conversationId: null,
    storeContent: true,
  };
  const logs = () => db.select().from(inferenceLogs).where(eq(inferenceLogs.organizationId, org!.id));
  const ledger = (kind: 'usage' | 'monthly_reset') =>
    db
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.organizationId, org!.id), eq(creditLedger.kind, kind)));
  return { id: org!.id, scope, model, logs, ledger };
}

const chatOf = (t: MeterTarget): ChatModel =>
  createAdapters({
    kind: 'openai_compatible',
    baseUrl: t.provider.baseUrl,
    apiKey: KEY,
    settings: {},
    timeoutMs: 1500,
    urlPolicy: { mode: 'any' },
  }).chat!;

const request = { system: 'Be brief', messages: [{ role: 'user' as const, content: 'hello metering' }] };

describe('meteredChat', () => {
  it('a whole answer writes one success row and one ledger charge of its price', async () => {
    const org = await organization();
    const gpt = await org.model('gpt-4o-mini', 'llm', { inputPer1k: 10, outputPer1k: 20 });
    const signal = new AbortController().signal;
    const result = await meteredChat({
      db,
      scope: org.scope,
      primary: gpt,
      request,
      chatOf,
      signal,
      description: 'Test',
    });
    expect(result.value.text).toBe('Echo: hello metering');
    expect(result.credits).toBeGreaterThan(0);
    const [log, ...moreLogs] = await org.logs();
    expect(moreLogs).toHaveLength(0);
    expect(log).toMatchObject({
      id: result.logId,
      status: 'success',
      streamed: false,
      fallback: false,
      response: 'Echo: hello metering',
      userMessage: 'hello metering',
      completePrompt: 'system: Be brief\nuser: hello metering',
      credits: result.credits,
      chatbotId: null,
    });
    const [charge, ...moreCharges] = await org.ledger('usage');
    expect(moreCharges).toHaveLength(0);
    expect(Number(charge!.monthlyDelta)).toBeCloseTo(-result.credits, 4);
    expect(charge!.metadata).toMatchObject({ inference_log_id: result.logId, requested: result.credits });
  });

  it('a streamed answer passes its tokens on, and is logged as streamed with its first-token time', async () => {
    const org = await organization();
    const gpt = await org.model('gpt-4o-mini', 'llm', { inputPer1k: 10, outputPer1k: 20 });
    const tokens: string[] = [];
    const result = await meteredChat({
      db,
      scope: org.scope,
      primary: gpt,
      request,
      chatOf,
      signal: new AbortController().signal,
      onToken: (t) => tokens.push(t),
      description: 'Test',
    });
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join('')).toBe(result.value.text);
    const [log] = await org.logs();
    expect(log).toMatchObject({ streamed: true, status: 'success' });
    expect(log!.firstTokenMs).not.toBeNull();
    expect(await org.ledger('usage')).toHaveLength(1);
  });

  it('the fallback answers a failing model, and the row and the charge say so', async () => {
    const org = await organization();
    const broken = await org.model('fail-500', 'llm', { inputPer1k: 10 });
    const gpt = await org.model('gpt-4o-mini', 'llm', { inputPer1k: 10, outputPer1k: 20 });
    const result = await meteredChat({
      db,
      scope: org.scope,
      primary: broken,
      fallback: gpt,
      request,
      chatOf,
      signal: new AbortController().signal,
      description: (t) => `Call to ${t.model.name}`,
    });
    expect(result).toMatchObject({ fallback: true, target: gpt });
    const logs = await org.logs();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ fallback: true, modelId: gpt.model.id, status: 'success' });
    const charges = await org.ledger('usage');
    expect(charges.map((c) => c.description)).toEqual(['Call to gpt-4o-mini']);
    expect(charges[0]!.metadata).toMatchObject({ fallback: true, model_id: gpt.model.id });
  });

  it('a failed call writes its error row and its charge, then throws the provider error', async () => {
    const org = await organization();
    const broken = await org.model('fail-500', 'llm', { inputPer1k: 10 });
    await expect(
      meteredChat({
        db,
        scope: org.scope,
        primary: broken,
        request,
        chatOf,
        signal: new AbortController().signal,
        description: 'Test',
      }),
    ).rejects.toBeInstanceOf(ProviderError);
    const logs = await org.logs();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ status: 'error', error: true, response: '' });
    expect(logs[0]!.errorMessage).not.toBe('');
    // The prompt was counted (the provider read it); the row and the ledger agree on the price.
    const charges = await org.ledger('usage');
    expect(charges).toHaveLength(1);
    expect(charges[0]!.metadata).toMatchObject({ failed: true, inference_log_id: logs[0]!.id });
    expect(Number(charges[0]!.monthlyDelta)).toBeCloseTo(-logs[0]!.credits, 4);
  });
});

describe('meteredCall', () => {
  it('a failed call of another type is logged and charged nothing, with a ledger row saying so', async () => {
    const org = await organization();
    const dalle = await org.model('dall-e-3', 'text-to-image', { perImage: 4, perCall: 1 });
    await expect(
      meteredCall({
        db,
        scope: org.scope,
        primary: dalle,
        prompt: 'a fox',
        userMessage: 'a fox',
        streamed: false,
        description: 'Image',
        call: () => Promise.reject(new ProviderError('timeout', 'The provider did not answer in time.')),
      }),
    ).rejects.toThrow('did not answer');
    const [log] = await org.logs();
    expect(log).toMatchObject({
      status: 'error',
      credits: 0,
      errorMessage: 'The provider did not answer in time.',
    });
    const charges = await org.ledger('usage');
    expect(charges).toHaveLength(1);
    expect(Number(charges[0]!.monthlyDelta)).toBe(0);
    expect(charges[0]!.metadata).toMatchObject({ failed: true, requested: 0 });
  });
});

describe('credits', () => {
  it('a new month renews the allowance exactly once, even under concurrent charges', async () => {
    const lastMonth = new Date();
    lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
    const org = await organization(lastMonth);
    expect(await creditPlan(db, org.id)).toMatchObject({ due: true, remaining_monthly_credits: 100 });
    await Promise.all([
      chargeCredits(db, org.id, { amount: 3, description: 'a' }),
      chargeCredits(db, org.id, { amount: 2, description: 'b' }),
      renewCredits(db, org.id),
    ]);
    await renewCredits(db, org.id);
    expect(await org.ledger('monthly_reset')).toHaveLength(1);
    expect(await creditPlan(db, org.id)).toMatchObject({ due: false, remaining_monthly_credits: 95 });
    const [period] = await db
      .select({ current: sql<boolean>`${creditPlans.periodStart} = date_trunc('month', now())` })
      .from(creditPlans)
      .where(eq(creditPlans.organizationId, org.id));
    expect(period!.current).toBe(true);
  });
});

describe('writeMetered', () => {
  /** A call's row and charge of `amount` credits, as meteredCall builds them. */
  async function calls(org: Awaited<ReturnType<typeof organization>>, amounts: number[]) {
    const gpt = await org.model('gpt-4o-mini', 'llm');
    return amounts.map((amount, i) => {
      const id = randomUUID();
      const row = inferenceLogRow({
        id,
        scope: org.scope,
        target: gpt,
        prompt: `question ${i}`,
        userMessage: `question ${i}`,
        response: `answer ${i}`,
        used: { inputTokens: 3, outputTokens: 2 },
        firstTokenMs: 5,
        totalMs: 9,
        streamed: true,
        fallback: false,
        error: null,
        credits: amount,
      });
      return { organizationId: org.id, row, charge: { amount, description: `call ${i}`, metadata: { i } } };
    });
  }
  const deltas = (rows: { monthlyDelta: number; extraDelta: number; metadata: unknown }[]) =>
    rows
      .sort((a, b) => (a.metadata as { i: number }).i - (b.metadata as { i: number }).i)
      .map((r) => [Number(r.monthlyDelta), Number(r.extraDelta)]);

  it('calls ending together are written by one statement: each its row, charges taken in order, monthly first', async () => {
    const org = await organization();
    await db.update(creditPlans).set({ extraCredits: 30 }).where(eq(creditPlans.organizationId, org.id));
    const writes = await calls(org, [25, 20, 10, 100]);
    await Promise.all(writes.map((write) => writeMetered(db, write)));
    const logs = await org.logs();
    expect(logs.map((l) => l.id).sort()).toEqual(writes.map((w) => w.row.id).sort());
    const usage = await org.ledger('usage');
    // 40 monthly and 30 extra: 25 from monthly; 15 + 5; 10 from extra; the last gets the 15 left.
    expect(deltas(usage)).toEqual([
      [-25, 0],
      [-15, -5],
      [0, -10],
      [0, -15],
    ]);
    expect(usage.map((u) => (u.metadata as { requested: number }).requested).sort((a, b) => a - b)).toEqual([
      10, 20, 25, 100,
    ]);
    // One statement: one transaction time for every row.
    expect(new Set(usage.map((u) => u.createdAt.getTime())).size).toBe(1);
    const plan = await creditPlan(db, org.id);
    expect(plan).toMatchObject({ remaining_monthly_credits: 0, extra_credits: 0 });
  });

  it('in a new month, calls ending together renew the allowance once, then are charged', async () => {
    const org = await organization(new Date(Date.UTC(2020, 0, 1)));
    await db.update(creditPlans).set({ extraCredits: 30 }).where(eq(creditPlans.organizationId, org.id));
    await Promise.all((await calls(org, [60, 50])).map((write) => writeMetered(db, write)));
    expect(await org.ledger('monthly_reset')).toHaveLength(1);
    expect(deltas(await org.ledger('usage'))).toEqual([
      [-60, 0],
      [-40, -10],
    ]);
    expect(await creditPlan(db, org.id)).toMatchObject({ remaining_monthly_credits: 0, extra_credits: 20 });
  });
});
