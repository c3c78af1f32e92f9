import { conversations, messages, organizations, queryRows, users, type Db } from '@atelier/db';
import { sharedTestDatabase } from '@atelier/testkit';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordQuestion } from '../src';

// Questions of one turn of the event loop are stored by one statement (src/conversations/record-message.ts).

let db: Db;
let conversation: () => Promise<string>;

beforeAll(async () => {
  db = (await sharedTestDatabase()).db;
  const [org] = await db.insert(organizations).values({ name: 'Questions org' }).returning();
  const [user] = await db
    .insert(users)
    .values({ organizationId: org!.id, email: `questions-${org!.id}@example.com`, userRoleId: 'user' })
    .returning();
  conversation = async () => {
    const [c] = await db
      .insert(conversations)
      .values({ organizationId: org!.id, userId: user!.id, chatbotType: 'simple' })
      .returning();
    return c!.id;
  };
}, 120_000);

const text = (t: string) => [{ type: 'text' as const, text: t }];

/** The stored messages with the transaction that wrote each. */
const written = (ids: string[]) =>
  db
    .select({ id: messages.id, conversationId: messages.conversationId, tx: sql<string>`xmin::text` })
    .from(messages)
    .where(inArray(messages.id, ids));

describe('recordQuestion', () => {
  it('stores the questions of one turn with one statement, each touching and titling its conversation', async () => {
    const convs = [await conversation(), await conversation(), await conversation()];
    const ids = await Promise.all(convs.map((c, i) => recordQuestion(db, c, text(`Question ${i}\nmore`))));
    const rows = await written(ids);
    expect(rows.map((r) => r.conversationId).sort()).toEqual([...convs].sort());
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1);
    for (const [i, id] of ids.entries()) {
      expect(rows.find((r) => r.id === id)!.conversationId).toBe(convs[i]);
    }
    const touched = await db.select().from(conversations).where(inArray(conversations.id, convs));
    for (const c of touched) {
      const i = convs.indexOf(c.id);
      expect(c.title).toBe(`Question ${i}`);
      expect(c.lastMessagePreview).toBe(`Question ${i}\nmore`);
    }
  });

  it("stores a conversation's second question of the same turn after its first, by a later statement", async () => {
    const conv = await conversation();
    const [first, second] = await Promise.all([
      recordQuestion(db, conv, text('first')),
      recordQuestion(db, conv, text('second')),
    ]);
    const stored = await db
      .select({ id: messages.id, createdAt: messages.createdAt })
      .from(messages)
      .where(eq(messages.conversationId, conv))
      .orderBy(asc(messages.createdAt));
    expect(stored.map((m) => m.id)).toEqual([first, second]);
    const [order] = await queryRows<{ after: boolean }>(
      db,
      sql`select (select created_at from messages where id = ${second}) > (select created_at from messages where id = ${first}) as after`,
    );
    expect(order).toMatchObject({ after: true });
    const rows = await written([first!, second!]);
    expect(new Set(rows.map((r) => r.tx)).size).toBe(2);
    const [c] = await db.select().from(conversations).where(eq(conversations.id, conv));
    expect(c!.title).toBe('first');
  });

  it('a question whose conversation is gone fails alone; the others of its turn are stored', async () => {
    const [kept, gone] = [await conversation(), await conversation()];
    await db.delete(conversations).where(eq(conversations.id, gone));
    const [ok, failed] = await Promise.allSettled([
      recordQuestion(db, kept, text('still here')),
      recordQuestion(db, gone, text('too late')),
    ]);
    expect(ok.status).toBe('fulfilled');
    expect(failed.status).toBe('rejected');
    expect(await written([(ok as PromiseFulfilledResult<string>).value])).toHaveLength(1);
  });
});
