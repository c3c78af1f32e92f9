import { chatbots, conversations, messages, queryRows, runs } from '@atelier/db';
import { sharedTestDatabase } from '@atelier/testkit';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import type { Principal } from '../src/services/auth/principal';
import { echoFlow, finished, flowBot } from './flows';
import { call, createOrg, testConfig, type Org } from './helpers';

// A chat message to a flow stores its question and its run together (one statement: a process dying
// between two writes would leave a question no run answers); the messages of one turn share that
// statement (runs-service.ts, insertChatRuns).
let app: FastifyInstance;
let org: Org;
let bot: typeof chatbots.$inferSelect | undefined;
let caller: Principal;

beforeAll(async () => {
  app = await buildApp({ config: testConfig(), database: await sharedTestDatabase(), logger: false });
  org = await createOrg(app);
  const ws = await org.workspace(org.admin, 'Chat runs');
  const id = await flowBot(app, org, ws, 'chatflow', echoFlow());
  [bot] = await app.db.select().from(chatbots).where(eq(chatbots.id, id));
  caller = { userId: org.admin.id, organizationId: org.id, role: 'admin', email: org.admin.email };
});
afterAll(async () => {
  await app.close();
});

async function conversation() {
  const res = await call(app, 'POST', '/chat-interface/conversations', {
    token: org.admin.token,
    body: { title: '', chatbot_id: bot!.id },
  });
  expect(res.status).toBe(201);
  const [row] = await app.db
    .select()
    .from(conversations)
    .where(eq(conversations.id, res.body.conversation_id as string));
  return row!;
}

/** Each message of the conversation, oldest first, with its time (exact, as text). */
const stored = (conversationId: string) =>
  queryRows<{ role: string; text: string; at: string }>(
    app.db,
    sql`select role, content->0->>'text' as text, created_at::text as at from messages
        where conversation_id = ${conversationId} order by created_at`,
  );
/** When a run was stored (its transaction's time: the same as its question's when stored together). */
const runAt = async (runId: string) =>
  (
    await queryRows<{ at: string }>(app.db, sql`select created_at::text as at from runs where id = ${runId}`)
  )[0]!.at;

describe('chat runs', () => {
  it('stores each question with its run, for many conversations at once, and answers each', async () => {
    const convs = await Promise.all([1, 2, 3, 4].map(() => conversation()));
    const started = await Promise.all(
      convs.map((c, i) => app.services.runs.startChat(caller, c, bot!, { query: `hello ${i}` })),
    );
    for (const [i, run] of started.entries()) {
      expect(run.conversationId).toBe(convs[i]!.id);
      const [question] = await stored(convs[i]!.id);
      expect(question).toMatchObject({ role: 'user', text: `hello ${i}` });
      expect(await runAt(run.id)).toBe(question!.at); // one statement: the question and its run
      await finished(app, org.admin.token, run.id);
      expect((await stored(convs[i]!.id)).map((m) => [m.role, m.text])).toEqual([
        ['user', `hello ${i}`],
        ['assistant', `You said: hello ${i}`],
      ]);
    }
  });

  it("keeps a conversation's two messages of one turn in order, each with its run", async () => {
    const c = await conversation();
    const [first, second] = await Promise.all([
      app.services.runs.startChat(caller, c, bot!, { query: 'first' }),
      app.services.runs.startChat(caller, c, bot!, { query: 'second' }),
    ]);
    const questions = (await stored(c.id)).filter((m) => m.role === 'user');
    expect(questions.map((m) => m.text)).toEqual(['first', 'second']);
    expect(questions[0]!.at < questions[1]!.at).toBe(true);
    expect(await runAt(first.id)).toBe(questions[0]!.at);
    // The second was taken once the first was stored: its history holds the first question.
    const [secondRun] = await app.db.select().from(runs).where(eq(runs.id, second.id));
    expect(secondRun!.inputs.history).toContainEqual({ role: 'user', content: 'first' });
    await finished(app, org.admin.token, first.id);
    await finished(app, org.admin.token, second.id);
  });

  it("members' messages of one turn are read by one statement, each checked for its own caller", async () => {
    const [mine, theirs] = [await conversation(), await conversation()];
    const other = await org.member('creator');
    const client = (app.db as unknown as { session: { client: { query: (...args: unknown[]) => unknown } } })
      .session.client;
    const queries = vi.spyOn(client, 'query');
    const member = { userId: other.id, organizationId: org.id, role: 'creator' as const, email: other.email };
    const results = await Promise.allSettled([
      app.services.runs.startOwnChat(caller, mine.id, 'chatflow', { query: 'mine' }),
      app.services.runs.startOwnChat(member, theirs.id, 'chatflow', { query: 'not mine' }),
    ]);
    const reads = queries.mock.calls.filter((args) => JSON.stringify(args[0]).includes('json_agg'));
    queries.mockRestore();
    expect(reads).toHaveLength(1);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ status: 404 });
    await finished(app, org.admin.token, (results[0] as PromiseFulfilledResult<{ id: string }>).value.id);
  });

  it('a message to a conversation deleted meanwhile fails alone; the others of its turn start', async () => {
    const [kept, gone] = [await conversation(), await conversation()];
    await app.db.delete(conversations).where(eq(conversations.id, gone.id));
    const [ok, failed] = await Promise.allSettled([
      app.services.runs.startChat(caller, kept, bot!, { query: 'still here' }),
      app.services.runs.startChat(caller, gone, bot!, { query: 'too late' }),
    ]);
    expect(ok.status).toBe('fulfilled');
    expect(failed.status).toBe('rejected');
    await finished(app, org.admin.token, (ok as PromiseFulfilledResult<{ id: string }>).value.id);
    expect(await app.db.select().from(messages).where(eq(messages.conversationId, gone.id))).toEqual([]);
  });
});
