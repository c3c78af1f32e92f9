import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { conversations, messages, nodeExecutions, organizations, runs, users, type Db } from '@atelier/db';
import { runStatuses, type RunStatus } from '@atelier/schemas';
import { sharedTestDatabase } from '@atelier/testkit';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFlowConfigs,
  canTransition,
  createMemoryCancelBus,
  createMemoryEventLog,
  createRunExecutor,
  createRunLifecycle,
  recordQuestion,
  RUN_CANCELLED,
  RUN_TRANSITIONS,
  RUNNER_STOPPED,
  type LoggedEvent,
  type RunOutcome,
} from '../src';
import type { ModelAccess } from '@atelier/metering';

type Events = ReturnType<typeof createMemoryEventLog>;

async function logged(events: Events, runId: string) {
  const seen: LoggedEvent[] = [];
  for await (const entry of events.read(runId, null, new AbortController().signal, { follow: false }))
    seen.push(entry);
  return seen.map((e) => e.event);
}

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function setup(db: Db) {
  const [org] = await db.insert(organizations).values({ name: 'Lifecycle org' }).returning();
  const [user] = await db
    .insert(users)
    .values({ organizationId: org!.id, email: `life-${org!.id}@example.com`, userRoleId: 'user' })
    .returning();
  const base = {
    organizationId: org!.id,
    workspaceId: org!.id,
    chatbotType: 'chatflow' as const,
    trigger: 'test' as const,
    configurationHash: await createFlowConfigs(db).store(org!.id, { nodes: [], edges: [] }),
  };
  const conversation = async () => {
    const [c] = await db
      .insert(conversations)
      .values({ organizationId: org!.id, userId: user!.id, chatbotType: 'chatflow' })
      .returning();
    return c!.id;
  };
  return { org: org!, base, conversation };
}

const outcomeFor = (status: Exclude<RunStatus, 'queued' | 'running'>): RunOutcome =>
  status === 'succeeded'
    ? { status, outputs: { answer: 'yes' }, text: 'yes' }
    : { status, error: `ended as ${status}` };

/** A running chat run in a conversation of its own, with a lifecycle over a memory event log. */
async function runningChatRun() {
  const { db } = await sharedTestDatabase();
  const { org, base, conversation } = await setup(db);
  const events = createMemoryEventLog();
  const lifecycle = createRunLifecycle({ db, events });
  const conv = await conversation();
  const [row] = await db
    .insert(runs)
    .values({ ...base, trigger: 'chat', conversationId: conv, status: 'running' })
    .returning();
  return { db, org, events, lifecycle, conv, row: row! };
}

describe('the run state table', () => {
  it('allows exactly these moves: queued -> running/cancelled/failed; running -> running/ends; ends are final', () => {
    expect(RUN_TRANSITIONS).toEqual({
      queued: ['running', 'cancelled', 'failed'],
      running: ['running', 'succeeded', 'failed', 'cancelled'],
      succeeded: [],
      failed: [],
      cancelled: [],
    });
    // Nothing moves a run back to queued: runs are born queued.
    for (const from of runStatuses) expect(canTransition(from, 'queued')).toBe(false);
  });

  it('applies every allowed move and refuses every illegal one without changing the row', async () => {
    const { db } = await sharedTestDatabase();
    const { org, base } = await setup(db);
    const events = createMemoryEventLog();
    const lifecycle = createRunLifecycle({ db, events });
    const targets = runStatuses.filter((s) => s !== 'queued');
    const checked: string[] = [];
    for (const from of runStatuses) {
      for (const to of targets) {
        const [row] = await db
          .insert(runs)
          .values({ ...base, status: from, ...(from === 'running' ? { attempts: 1 } : {}) })
          .returning();
        const moved =
          to === 'running'
            ? (await lifecycle.claim(row!.id)) !== null
            : await lifecycle.finish(row!.id, outcomeFor(to));
        const [after] = await db.select().from(runs).where(eq(runs.id, row!.id));
        const log = await logged(events, row!.id);
        if (canTransition(from, to)) {
          expect(moved, `${from} -> ${to}`).toBe(true);
          expect(after!.status, `${from} -> ${to}`).toBe(to);
          if (to === 'running') {
            expect(after!.attempts).toBe(row!.attempts + 1);
            expect(log).toEqual([]);
          } else {
            expect(after!.finishedAt).not.toBeNull();
            expect(log).toHaveLength(1);
            expect(log[0]!.type).toBe(to === 'succeeded' ? 'execution_completed' : 'execution_error');
          }
        } else {
          expect(moved, `${from} -> ${to}`).toBe(false);
          expect(after, `${from} -> ${to}`).toEqual(row);
          expect(log).toEqual([]);
        }
        checked.push(`${from}->${to}`);
      }
    }
    expect(checked).toHaveLength(runStatuses.length * targets.length);
    await db.delete(runs).where(eq(runs.organizationId, org.id));
    await events.close();
  });

  it("stores a message after its conversation's last one, even when the clock says the same time or earlier", async () => {
    const { db, org, lifecycle, conv, row } = await runningChatRun();
    await recordQuestion(db, conv, [{ type: 'text', text: 'first' }]);
    // A clock that ticks in milliseconds gives a fast answer its question's time; here, a later one.
    const ahead = new Date(Date.now() + 3_600_000);
    await db.update(messages).set({ createdAt: ahead }).where(eq(messages.conversationId, conv));
    await recordQuestion(db, conv, [{ type: 'text', text: 'second' }]);
    expect(await lifecycle.finish(row.id, { status: 'succeeded', outputs: {}, text: 'third' })).toBe(true);
    const stored = await db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, conv))
      .orderBy(asc(messages.createdAt));
    expect(stored.map((m) => (m.content[0] as { text: string }).text)).toEqual(['first', 'second', 'third']);
    expect(stored[1]!.createdAt.getTime()).toBeGreaterThanOrEqual(ahead.getTime());
    await db.delete(runs).where(eq(runs.organizationId, org.id));
  });

  it('ends a run once: a second end (the reaper racing the runner) is refused and logs nothing', async () => {
    const { db, org, events, lifecycle, conv, row } = await runningChatRun();
    const [first, second] = await Promise.all([
      lifecycle.finish(row.id, { status: 'failed', error: RUNNER_STOPPED }),
      lifecycle.finish(row.id, { status: 'succeeded', outputs: {}, text: 'late' }),
    ]);
    expect([first, second]).toEqual([true, false]);
    const [after] = await db.select().from(runs).where(eq(runs.id, row.id));
    expect(after).toMatchObject({ status: 'failed', error: RUNNER_STOPPED });
    expect(await logged(events, row.id)).toEqual([
      { type: 'execution_error', run_id: row.id, error: RUNNER_STOPPED, status: 'failed' },
    ]);
    const stored = await db.select().from(messages).where(eq(messages.conversationId, conv));
    expect(stored.map((m) => [m.role, m.error, m.content])).toEqual([
      ['assistant', true, [{ type: 'text', text: `Error: ${RUNNER_STOPPED}` }]],
    ]);
    // The statement that ended the run also touched its conversation.
    const [touched] = await db.select().from(conversations).where(eq(conversations.id, conv));
    expect(touched!.lastMessagePreview).toBe(`Error: ${RUNNER_STOPPED}`.slice(0, 120));
    await db.delete(runs).where(eq(runs.organizationId, org.id));
    await events.close();
  });

  it('a run claimed twice at once (delivered twice) is taken by one claim only', async () => {
    const { db } = await sharedTestDatabase();
    const { org, base } = await setup(db);
    const lifecycle = createRunLifecycle({ db, events: createMemoryEventLog() });
    const [row] = await db
      .insert(runs)
      .values({ ...base, trigger: 'chat', status: 'queued' })
      .returning();
    const claims = await Promise.all([lifecycle.claim(row!.id), lifecycle.claim(row!.id)]);
    expect(claims.map((c) => c?.id ?? null)).toEqual([row!.id, null]);
    await db.delete(runs).where(eq(runs.organizationId, org.id));
  });

  it('two ends of one run at once go in order: a refused first does not take the second its place', async () => {
    const { db, org, events, lifecycle, row } = await runningChatRun();
    // The first may end the run only from queued (it is running): refused. The second ends it.
    const [first, second] = await Promise.all([
      lifecycle.finish(row.id, { status: 'cancelled', error: 'Cancelled.' }, ['queued']),
      lifecycle.finish(row.id, { status: 'failed', error: RUNNER_STOPPED }),
    ]);
    expect([first, second]).toEqual([false, true]);
    const [after] = await db.select().from(runs).where(eq(runs.id, row.id));
    expect(after).toMatchObject({ status: 'failed', error: RUNNER_STOPPED });
    expect(await logged(events, row.id)).toEqual([
      { type: 'execution_error', run_id: row.id, error: RUNNER_STOPPED, status: 'failed' },
    ]);
    await db.delete(runs).where(eq(runs.organizationId, org.id));
    await events.close();
  });

  it("writes the node executions of a run's last turn with its end, only when that end applies", async () => {
    const { db, org, events, lifecycle, row } = await runningChatRun();
    const execution = (nodeId: string, outputs: Record<string, unknown>) => ({
      nodeId,
      type: 'output' as const,
      status: 'succeeded' as const,
      durationSeconds: 0.01,
      parameters: {},
      outputs,
      startedAt: new Date().toISOString(),
    });
    // A value JSON cannot hold (a BigInt) is dropped with the reason; the node and the end are kept.
    const ended = await lifecycle.finish(
      row.id,
      { status: 'succeeded', outputs: {}, text: 'ok' },
      undefined,
      [execution('llm_last', { text: 'ok' }), execution('output_last', { huge: 10n })],
    );
    expect(ended).toBe(true);
    const stored = await db
      .select()
      .from(nodeExecutions)
      .where(eq(nodeExecutions.runId, row.id))
      .orderBy(asc(nodeExecutions.nodeId));
    expect(stored.map((n) => [n.nodeId, n.status])).toEqual([
      ['llm_last', 'succeeded'],
      ['output_last', 'succeeded'],
    ]);
    expect(stored[0]!.outputs).toEqual({ text: 'ok' });
    expect(String((stored[1]!.outputs as { _unstorable?: string })._unstorable)).toMatch(
      /could not be stored/,
    );
    // A second end (refused: the run has ended) writes none of its nodes.
    expect(
      await lifecycle.finish(row.id, { status: 'failed', error: 'late' }, undefined, [
        execution('late_node', {}),
      ]),
    ).toBe(false);
    const after = await db.select().from(nodeExecutions).where(eq(nodeExecutions.runId, row.id));
    expect(after.map((n) => n.nodeId).sort()).toEqual(['llm_last', 'output_last']);
    await db.delete(runs).where(eq(runs.organizationId, org.id));
    await events.close();
  });

  it('a run whose conversation was deleted meanwhile still ends, with no message', async () => {
    const { db, org, events, lifecycle, conv, row } = await runningChatRun();
    await db.delete(conversations).where(eq(conversations.id, conv));
    expect(await lifecycle.finish(row.id, { status: 'succeeded', outputs: {}, text: 'done' })).toBe(true);
    const [after] = await db.select().from(runs).where(eq(runs.id, row.id));
    expect(after).toMatchObject({ status: 'succeeded', finalOutput: 'done', conversationId: null });
    expect(await db.select().from(messages).where(eq(messages.conversationId, conv))).toEqual([]);
    await db.delete(runs).where(eq(runs.organizationId, org.id));
    await events.close();
  });

  it('a queued chat run cancelled before any runner took it answers its conversation with the error', async () => {
    const { db } = await sharedTestDatabase();
    const { org, base, conversation } = await setup(db);
    const events = createMemoryEventLog();
    const lifecycle = createRunLifecycle({ db, events });
    const conv = await conversation();
    const [row] = await db
      .insert(runs)
      .values({ ...base, trigger: 'chat', conversationId: conv })
      .returning();
    expect(await lifecycle.finish(row!.id, { status: 'cancelled', error: RUN_CANCELLED }, ['queued'])).toBe(
      true,
    );
    const stored = await db.select().from(messages).where(eq(messages.conversationId, conv));
    expect(stored.map((m) => [m.role, m.error, m.content])).toEqual([
      ['assistant', true, [{ type: 'text', text: `Error: ${RUN_CANCELLED}` }]],
    ]);
    expect(await logged(events, row!.id)).toEqual([
      { type: 'execution_error', run_id: row!.id, error: RUN_CANCELLED, status: 'cancelled' },
    ]);
    await db.delete(runs).where(eq(runs.organizationId, org.id));
    await events.close();
  });
});

// An API whose /fast answers at once and whose /slow answers only when released.
const held: ServerResponse[] = [];
const api = createServer((req, res) => {
  if (req.url === '/slow') {
    held.push(res);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: true }));
});
let apiUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of held.splice(0)) res.end('{}');
  await new Promise((resolve) => api.close(resolve));
});

const node = (id: string, type: string, fields: unknown) => ({
  id,
  type,
  data: { label: id, fields },
  position: { x: 0, y: 0 },
});

describe('a run killed midway', () => {
  it('shows the node executions that had ended, and its conversation has the error', async () => {
    const { db } = await sharedTestDatabase();
    const { org, base, conversation } = await setup(db);
    const conv = await conversation();
    // input -> fast API -> slow API (hangs) -> output: two nodes end, then the run is stuck.
    const config = {
      nodes: [
        node('input_in01', 'input', []),
        node('api_fast', 'api_request', { method: 'GET', url: `${apiUrl}/fast` }),
        node('api_slow', 'api_request', { method: 'GET', url: `${apiUrl}/slow` }),
        node('output_ou01', 'output', { response: 'done' }),
      ],
      edges: [
        { id: 'e1', source: 'input_in01', target: 'api_fast' },
        { id: 'e2', source: 'api_fast', target: 'api_slow' },
        { id: 'e3', source: 'api_slow', target: 'output_ou01' },
      ],
    };
    const [row] = await db
      .insert(runs)
      .values({
        ...base,
        trigger: 'chat',
        conversationId: conv,
        configurationHash: await createFlowConfigs(db).store(base.organizationId, config),
        inputs: { query: 'go' },
      })
      .returning();
    const events = createMemoryEventLog();
    const lifecycle = createRunLifecycle({ db, events });
    const execute = createRunExecutor({
      db,
      events,
      lifecycle,
      cancels: createMemoryCancelBus(),
      models: {} as ModelAccess, // the flow calls no model
      httpPolicy: { mode: 'any' },
    });
    const running = execute(row!.id);

    // The two ended nodes are stored while the run is still going (the slow call is held).
    const written = await until(async () => {
      const rows = await db.select().from(nodeExecutions).where(eq(nodeExecutions.runId, row!.id));
      return held.length > 0 && rows.length >= 2 && rows;
    });
    expect(written.map((e) => e.nodeId).sort()).toEqual(['api_fast', 'input_in01']);

    // Its runner is gone (killed): it is ended as the reaper ends a dead run (see reaper.test.ts for
    // the reaper choosing it; not run here, so as not to reap other suites' runs in the shared database).
    expect(await lifecycle.finish(row!.id, { status: 'failed', error: RUNNER_STOPPED }, ['running'])).toBe(
      true,
    );
    const [reaped] = await db.select().from(runs).where(eq(runs.id, row!.id));
    expect(reaped).toMatchObject({ status: 'failed', error: RUNNER_STOPPED });
    const after = await db
      .select()
      .from(nodeExecutions)
      .where(eq(nodeExecutions.runId, row!.id))
      // As the API lists them: two nodes started within one millisecond share `startedAt`.
      .orderBy(asc(nodeExecutions.startedAt), asc(nodeExecutions.seq));
    expect(after.map((e) => [e.nodeId, e.status])).toEqual([
      ['input_in01', 'succeeded'],
      ['api_fast', 'succeeded'],
    ]);
    const answer = await db.select().from(messages).where(eq(messages.conversationId, conv));
    expect(answer.map((m) => [m.role, m.error, m.content])).toEqual([
      ['assistant', true, [{ type: 'text', text: `Error: ${RUNNER_STOPPED}` }]],
    ]);

    // The zombie runner comes back and finishes: its end is refused (failed is final), nothing doubles.
    for (const res of held.splice(0)) res.end(JSON.stringify({ late: true }));
    await running;
    const [final] = await db.select().from(runs).where(eq(runs.id, row!.id));
    expect(final).toMatchObject({ status: 'failed', error: RUNNER_STOPPED });
    const ends = (await logged(events, row!.id)).filter(
      (e) => e.type === 'execution_completed' || e.type === 'execution_error',
    );
    expect(ends).toEqual([
      { type: 'execution_error', run_id: row!.id, error: RUNNER_STOPPED, status: 'failed' },
    ]);
    expect(await db.select().from(messages).where(eq(messages.conversationId, conv))).toHaveLength(1);
    // Nodes that end after the run did are not added to a final run.
    expect(await db.select().from(nodeExecutions).where(eq(nodeExecutions.runId, row!.id))).toHaveLength(2);
    await db.delete(runs).where(eq(runs.organizationId, org.id));
    await events.close();
  });
});

describe('a run that ends', () => {
  it('writes the nodes that ended before its last turn on their own, and those of its last turn with its end', async () => {
    const { db } = await sharedTestDatabase();
    const { org, base } = await setup(db);
    // input -> API call (a turn of its own: it waits for the network) -> output.
    const config = {
      nodes: [
        node('input_in01', 'input', []),
        node('api_fast', 'api_request', { method: 'GET', url: `${apiUrl}/fast` }),
        node('output_ou01', 'output', { response: 'done' }),
      ],
      edges: [
        { id: 'e1', source: 'input_in01', target: 'api_fast' },
        { id: 'e2', source: 'api_fast', target: 'output_ou01' },
      ],
    };
    const [row] = await db
      .insert(runs)
      .values({
        ...base,
        configurationHash: await createFlowConfigs(db).store(base.organizationId, config),
        inputs: { query: 'go' },
      })
      .returning();
    const events = createMemoryEventLog();
    const lifecycle = createRunLifecycle({ db, events });
    const alone: string[] = [];
    const withEnd: string[][] = [];
    const watched: typeof lifecycle = {
      ...lifecycle,
      recordNode: (runId, execution) => {
        alone.push(execution.nodeId);
        return lifecycle.recordNode(runId, execution);
      },
      finish: (runId, outcome, from, nodes = []) => {
        withEnd.push(nodes.map((n) => n.nodeId));
        return lifecycle.finish(runId, outcome, from, nodes);
      },
    };
    const execute = createRunExecutor({
      db,
      events,
      lifecycle: watched,
      cancels: createMemoryCancelBus(),
      models: {} as ModelAccess,
      httpPolicy: { mode: 'any' },
    });
    await execute(row!.id);
    const [final] = await db.select().from(runs).where(eq(runs.id, row!.id));
    expect(final).toMatchObject({ status: 'succeeded' });
    expect(alone).toEqual(['input_in01']);
    expect(withEnd).toEqual([['api_fast', 'output_ou01']]);
    const stored = await db
      .select()
      .from(nodeExecutions)
      .where(eq(nodeExecutions.runId, row!.id))
      .orderBy(asc(nodeExecutions.startedAt));
    expect(stored.map((e) => [e.nodeId, e.status])).toEqual([
      ['input_in01', 'succeeded'],
      ['api_fast', 'succeeded'],
      ['output_ou01', 'succeeded'],
    ]);
    await db.delete(runs).where(eq(runs.organizationId, org.id));
    await events.close();
  });
});
