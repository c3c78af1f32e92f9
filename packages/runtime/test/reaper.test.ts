import { conversations, messages, organizations, runs, users } from '@atelier/db';
import { sharedTestDatabase } from '@atelier/testkit';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  createFlowConfigs,
  createMemoryEventLog,
  createRunLifecycle,
  reapDeadRuns,
  RUNNER_STOPPED,
  type LoggedEvent,
} from '../src';

describe('the reaper: no run stays running forever', () => {
  it('ends runs whose runner stopped beating, and runs lost in an in-memory queue, with the reason', async () => {
    const { db } = await sharedTestDatabase();
    const [org] = await db.insert(organizations).values({ name: 'Reaper org' }).returning();
    const [user] = await db
      .insert(users)
      .values({ organizationId: org!.id, email: `reaper-${org!.id}@example.com`, userRoleId: 'user' })
      .returning();
    const [conversation] = await db
      .insert(conversations)
      .values({ organizationId: org!.id, userId: user!.id, chatbotType: 'chatflow' })
      .returning();
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    const base = {
      organizationId: org!.id,
      workspaceId: org!.id,
      chatbotType: 'workflow' as const,
      trigger: 'test' as const,
      configurationHash: await createFlowConfigs(db).store(org!.id, { nodes: [], edges: [] }),
    };
    const [dead, alive, lost, waiting] = await db
      .insert(runs)
      .values([
        { ...base, status: 'running', heartbeatAt: minutesAgo(5) },
        { ...base, status: 'running', heartbeatAt: new Date() },
        // A chat message whose run was lost in the queue.
        {
          ...base,
          status: 'queued',
          createdAt: minutesAgo(30),
          trigger: 'chat' as const,
          conversationId: conversation!.id,
        },
        { ...base, status: 'queued' },
      ])
      .returning();
    const events = createMemoryEventLog();
    const ended = await reapDeadRuns(db, createRunLifecycle({ db, events }), { queuedLimitMs: 15 * 60_000 });
    expect(ended).toBeGreaterThanOrEqual(2);
    const after = await db
      .select()
      .from(runs)
      .where(inArray(runs.id, [dead!.id, alive!.id, lost!.id, waiting!.id]));
    const status = Object.fromEntries(after.map((r) => [r.id, [r.status, r.error]]));
    expect(status[dead!.id]).toEqual(['failed', RUNNER_STOPPED]);
    expect(status[lost!.id]).toEqual(['failed', RUNNER_STOPPED]);
    expect(status[alive!.id]).toEqual(['running', null]);
    expect(status[waiting!.id]).toEqual(['queued', null]);

    // A client following the dead run hears its end.
    const seen: LoggedEvent[] = [];
    for await (const entry of events.read(dead!.id, null, new AbortController().signal)) seen.push(entry);
    expect(seen.map((e) => e.event)).toEqual([
      { type: 'execution_error', run_id: dead!.id, error: RUNNER_STOPPED, status: 'failed' },
    ]);

    // The lost chat run's question is answered with the error in its conversation.
    const answer = await db.select().from(messages).where(eq(messages.conversationId, conversation!.id));
    expect(answer.map((m) => [m.role, m.error, m.content])).toEqual([
      ['assistant', true, [{ type: 'text', text: `Error: ${RUNNER_STOPPED}` }]],
    ]);
    await db.delete(runs).where(eq(runs.organizationId, org!.id));
    await events.close();
  });
});
