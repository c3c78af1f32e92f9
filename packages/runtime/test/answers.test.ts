import {
  conversations,
  creditLedger,
  creditPlans,
  inferenceLogs,
  messages,
  organizations,
  users,
  workspaces,
  type Db,
} from '@atelier/db';
import type { MeterWrite } from '@atelier/metering';
import { sharedTestDatabase } from '@atelier/testkit';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordAnswer } from '../src';

// Answers written with their calls' inference logs and charges: those of one organization that end
// together share one statement (src/conversations/record-message.ts, over writeTogether of @atelier/db).

let db: Db;
let org: { id: string; workspaceId: string; userId: string };
let conversation: () => Promise<string>;

beforeAll(async () => {
  db = (await sharedTestDatabase()).db;
  const [o] = await db.insert(organizations).values({ name: 'Answers org' }).returning();
  const [ws] = await db.insert(workspaces).values({ organizationId: o!.id, name: 'W' }).returning();
  const [user] = await db
    .insert(users)
    .values({ organizationId: o!.id, email: `answers-${o!.id}@example.com`, userRoleId: 'user' })
    .returning();
  await db.insert(creditPlans).values({
    organizationId: o!.id,
    monthlyCredits: 1000,
    remainingMonthlyCredits: 1000,
    periodStart: new Date(),
  });
  org = { id: o!.id, workspaceId: ws!.id, userId: user!.id };
  conversation = async () => {
    const [c] = await db
      .insert(conversations)
      .values({ organizationId: o!.id, userId: user!.id, chatbotType: 'simple' })
      .returning();
    return c!.id;
  };
}, 120_000);

const text = (t: string) => [{ type: 'text' as const, text: t }];

/** An answer's inference log and charge of `amount` credits. */
function meter(conversationId: string, amount: number): MeterWrite {
  return {
    organizationId: org.id,
    row: {
      id: randomUUID(),
      organizationId: org.id,
      workspaceId: org.workspaceId,
      chatbotName: 'Bot',
      conversationId,
      userId: org.userId,
      modelName: 'gpt',
      providerModelName: 'gpt',
      providerType: 'openai_compatible',
      requestWords: 1,
      responseWords: 1,
      totalMs: 5,
      streamed: true,
      status: 'success',
      credits: amount,
    },
    charge: { amount, description: 'Chat', userId: org.userId },
  };
}

const written = (ids: string[]) =>
  db
    .select({
      id: messages.id,
      conversationId: messages.conversationId,
      createdAt: messages.createdAt,
      tx: sql<string>`xmin::text`,
    })
    .from(messages)
    .where(inArray(messages.id, ids))
    .orderBy(asc(messages.createdAt));

describe('recordAnswer with its meter', () => {
  it('answers ending together: one statement with their logs and charges, in order within a conversation', async () => {
    const [one, two] = [await conversation(), await conversation()];
    const meters = [meter(one, 2), meter(one, 3), meter(two, 5)];
    const ids = await Promise.all([
      recordAnswer(db, one, text('first answer'), false, meters[0]),
      recordAnswer(db, one, text('second answer'), false, meters[1]),
      recordAnswer(db, two, text('other answer'), false, meters[2]),
    ]);
    const rows = await written(ids);
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    // The conversation's two answers are read in the order they were given, its preview the latest.
    expect(rows.filter((r) => r.conversationId === one).map((r) => r.id)).toEqual([ids[0], ids[1]]);
    const [touched] = await db.select().from(conversations).where(eq(conversations.id, one));
    expect(touched!.lastMessagePreview).toBe('second answer');
    const logs = await db
      .select({ id: inferenceLogs.id, tx: sql<string>`xmin::text` })
      .from(inferenceLogs)
      .where(
        inArray(
          inferenceLogs.id,
          meters.map((m) => m.row.id!),
        ),
      );
    expect(logs).toHaveLength(3);
    expect(logs[0]!.tx).toBe(rows[0]!.tx);
    const usage = await db
      .select({ delta: creditLedger.monthlyDelta })
      .from(creditLedger)
      .where(eq(creditLedger.organizationId, org.id));
    expect(usage.map((u) => Number(u.delta)).sort((a, b) => a - b)).toEqual([-5, -3, -2]);
  });

  it('an answer whose conversation is gone fails alone: the others of its statement are written', async () => {
    const [kept, gone] = [await conversation(), await conversation()];
    await db.delete(conversations).where(eq(conversations.id, gone));
    const results = await Promise.allSettled([
      recordAnswer(db, kept, text('kept'), false, meter(kept, 1)),
      recordAnswer(db, gone, text('lost'), false, meter(gone, 1)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    const rows = await written([(results[0] as PromiseFulfilledResult<string>).value]);
    expect(rows).toHaveLength(1);
  });
});
