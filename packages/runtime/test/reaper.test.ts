import { organizations, runs } from '@atelier/db';
import { sharedTestDatabase } from '@atelier/testkit';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createMemoryEventLog, reapDeadRuns, RUNNER_STOPPED, type LoggedEvent } from '../src';

describe('the reaper: no run stays running forever', () => {
  it('ends runs whose runner stopped beating, and runs lost in an in-memory queue, with the reason', async () => {
    const { db } = await sharedTestDatabase();
    const [org] = await db.insert(organizations).values({ name: 'Reaper org' }).returning();
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    const base = {
      organizationId: org!.id,
      workspaceId: org!.id,
      chatbotType: 'workflow' as const,
      trigger: 'test' as const,
      configuration: { nodes: [], edges: [] },
    };
    const [dead, alive, lost, waiting] = await db
      .insert(runs)
      .values([
        { ...base, status: 'running', heartbeatAt: minutesAgo(5) },
        { ...base, status: 'running', heartbeatAt: new Date() },
        { ...base, status: 'queued', createdAt: minutesAgo(30) },
        { ...base, status: 'queued' },
      ])
      .returning();
    const events = createMemoryEventLog();
    await reapDeadRuns(db, events, { queuedLimitMs: 15 * 60_000 });
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
    await db.delete(runs).where(eq(runs.organizationId, org!.id));
    await events.close();
  });
});
