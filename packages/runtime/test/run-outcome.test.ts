import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeExecutions, organizations, runs, type Db } from '@atelier/db';
import { sharedTestDatabase } from '@atelier/testkit';
import type { NodeExecution } from '@atelier/schemas';
import { eq, SQL, StringChunk } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFlowConfigs,
  createMemoryCancelBus,
  createMemoryEventLog,
  createRunExecutor,
  createRunLifecycle,
  NODE_WRITE_DELAY_MS,
  UNSTORABLE_RESULT,
  type LoggedEvent,
} from '../src';
import type { ModelAccess } from '@atelier/metering';

const NUL = '\u0000';

/** A local API answering JSON whose text holds NUL, in a value and in a key. */
const api = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ greeting: `hi${NUL}there`, [`k${NUL}`]: 'v' }));
});
let apiUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/data`;
});
afterAll(() => new Promise((resolve) => api.close(resolve)));

const node = (id: string, type: string, fields: unknown) => ({
  id,
  type,
  data: { label: id, fields },
  position: { x: 0, y: 0 },
});

/** input -> API request -> output answering with what the API said: no model is called. */
const apiFlow = () => ({
  nodes: [
    node('input_in01', 'input', []),
    node('api_ab12', 'api_request', { method: 'GET', url: apiUrl }),
    node('output_ou01', 'output', { response: 'The API said {{#api_ab12.body.greeting#}}' }),
  ],
  edges: [
    { id: 'e1', source: 'input_in01', target: 'api_ab12' },
    { id: 'e2', source: 'api_ab12', target: 'output_ou01' },
  ],
});

const textOf = (query: unknown) =>
  query instanceof SQL
    ? query.queryChunks.map((c) => (c instanceof StringChunk ? c.value.join('') : '')).join('')
    : '';

/** The database, with every statement sent through `execute` handed to `intercept` first. */
function intercepting(db: Db, intercept: (text: string, send: () => unknown) => unknown): Db {
  return new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop !== 'execute' || typeof value !== 'function') {
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (query: unknown) =>
        intercept(textOf(query), () => (value as (q: unknown) => unknown).call(target, query));
    },
  });
}

/** The database, noting the text of every statement sent through `execute`. */
const recordingStatements = (db: Db, texts: string[]): Db =>
  intercepting(db, (text, send) => {
    texts.push(text);
    return send();
  });

/** The database, except that the statement writing runs' outcomes fails `failures` times. */
function failingOutcomeWrites(db: Db, failures: number): Db {
  let left = failures;
  return intercepting(db, (text, send) => {
    if (text.includes('update runs r set status = o.status') && left > 0) {
      left -= 1;
      return Promise.reject(new Error('simulated write failure'));
    }
    return send();
  });
}

/** A node execution that ended well, with these outputs. */
const ended = (nodeId: string, outputs: Record<string, unknown> = { ok: true }): NodeExecution => ({
  nodeId,
  type: 'api_request',
  status: 'succeeded',
  startedAt: new Date().toISOString(),
  durationSeconds: 0.1,
  parameters: {},
  outputs,
});

async function queuedRun(db: Db, inputs: Record<string, unknown>) {
  const [org] = await db.insert(organizations).values({ name: 'Outcome org' }).returning();
  const [run] = await db
    .insert(runs)
    .values({
      organizationId: org!.id,
      workspaceId: org!.id,
      chatbotType: 'workflow',
      trigger: 'test',
      configurationHash: await createFlowConfigs(db).store(org!.id, apiFlow()),
      inputs,
    })
    .returning();
  return run!.id;
}

function executor(db: Db) {
  const events = createMemoryEventLog();
  const execute = createRunExecutor({
    db,
    events,
    cancels: createMemoryCancelBus(),
    // The flow calls no model.
    models: {} as ModelAccess,
    httpPolicy: { mode: 'any' },
  });
  return { events, execute };
}

async function lastEvent(events: ReturnType<typeof createMemoryEventLog>, runId: string) {
  const seen: LoggedEvent[] = [];
  for await (const entry of events.read(runId, null, new AbortController().signal)) seen.push(entry);
  return seen.at(-1)?.event;
}

describe('a run always ends with what it produced stored', () => {
  it('stores outputs and node executions holding NUL, as U+FFFD', async () => {
    const { db } = await sharedTestDatabase();
    const runId = await queuedRun(db, { query: 'go' });
    const { events, execute } = executor(db);
    await execute(runId);
    const [run] = await db.select().from(runs).where(eq(runs.id, runId));
    expect(run).toMatchObject({ status: 'succeeded', finalOutput: 'The API said hi\uFFFDthere' });
    const executions = await db.select().from(nodeExecutions).where(eq(nodeExecutions.runId, runId));
    expect(executions.find((e) => e.nodeId === 'api_ab12')?.outputs).toMatchObject({
      body: { greeting: 'hi\uFFFDthere', 'k\uFFFD': 'v' },
    });
    expect((await lastEvent(events, runId))?.type).toBe('execution_completed');
  });

  it('ends a run whose outcome write fails as failed, with the reason, instead of leaving it running', async () => {
    const { db } = await sharedTestDatabase();
    const runId = await queuedRun(db, { query: 'hello' });
    const { events, execute } = executor(failingOutcomeWrites(db, 1));
    await execute(runId);
    const [run] = await db.select().from(runs).where(eq(runs.id, runId));
    expect(run?.status).toBe('failed');
    expect(run?.error).toBe(`${UNSTORABLE_RESULT} (simulated write failure)`);
    expect(run?.finishedAt).not.toBeNull();
    expect(await lastEvent(events, runId)).toMatchObject({ type: 'execution_error', status: 'failed' });
    // Its nodes are still shown, without their values.
    const executions = await db.select().from(nodeExecutions).where(eq(nodeExecutions.runId, runId));
    expect(executions.map((e) => e.nodeId).sort()).toEqual(['api_ab12', 'input_in01', 'output_ou01']);
    for (const e of executions) {
      expect(e.outputs).toEqual({ _unstorable: `${UNSTORABLE_RESULT} (simulated write failure)` });
    }
  });

  it("writes a short run's node executions with its end, in the end's one statement", async () => {
    const { db } = await sharedTestDatabase();
    const runId = await queuedRun(db, { query: 'hello' });
    const texts: string[] = [];
    const { execute } = executor(recordingStatements(db, texts));
    await execute(runId);
    const [run] = await db.select().from(runs).where(eq(runs.id, runId));
    expect(run?.status).toBe('succeeded');
    const executions = await db.select().from(nodeExecutions).where(eq(nodeExecutions.runId, runId));
    expect(executions.map((e) => [e.nodeId, e.status]).sort()).toEqual([
      ['api_ab12', 'succeeded'],
      ['input_in01', 'succeeded'],
      ['output_ou01', 'succeeded'],
    ]);
    const nodeWrites = texts.filter((t) => t.includes('insert into node_executions'));
    expect(nodeWrites).toHaveLength(1);
    expect(nodeWrites[0]).toContain('update runs r set status = o.status');
  });

  it('keeps a node execution whose values cannot be serialized, without them, and the run ends as it did', async () => {
    const { db } = await sharedTestDatabase();
    const runId = await queuedRun(db, { query: 'hello' });
    const lifecycle = createRunLifecycle({ db, events: createMemoryEventLog() });
    expect(await lifecycle.claim(runId)).not.toBeNull();
    await lifecycle.recordNode(runId, ended('api_ab12', { size: 10n } as unknown as Record<string, unknown>));
    expect(await lifecycle.finish(runId, { status: 'succeeded', text: 'done' })).toBe(true);
    const [run] = await db.select().from(runs).where(eq(runs.id, runId));
    expect(run).toMatchObject({ status: 'succeeded', finalOutput: 'done' });
    const [execution, ...more] = await db
      .select()
      .from(nodeExecutions)
      .where(eq(nodeExecutions.runId, runId));
    expect(more).toHaveLength(0);
    expect(execution).toMatchObject({ nodeId: 'api_ab12', status: 'succeeded' });
    expect(String((execution!.outputs as { _unstorable: string })._unstorable)).toContain(UNSTORABLE_RESULT);
  });

  it('writes the nodes of a run still going after NODE_WRITE_DELAY_MS, and the rest with its end, each once', async () => {
    const { db } = await sharedTestDatabase();
    const runId = await queuedRun(db, { query: 'hello' });
    const lifecycle = createRunLifecycle({ db, events: createMemoryEventLog() });
    expect(await lifecycle.claim(runId)).not.toBeNull();
    const stored = async () =>
      (await db.select().from(nodeExecutions).where(eq(nodeExecutions.runId, runId))).map((e) => e.nodeId);
    await lifecycle.recordNode(runId, ended('first'));
    expect(await stored()).toEqual([]);
    const deadline = Date.now() + 10_000;
    while ((await stored()).length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, NODE_WRITE_DELAY_MS / 5));
    }
    expect(await stored()).toEqual(['first']);
    await lifecycle.recordNode(runId, ended('second'));
    expect(await lifecycle.finish(runId, { status: 'succeeded', text: 'done' })).toBe(true);
    expect((await stored()).sort()).toEqual(['first', 'second']);
  });

  it("adds nothing to a run another process ended (a zombie runner's late nodes)", async () => {
    const { db } = await sharedTestDatabase();
    const runId = await queuedRun(db, { query: 'hello' });
    const zombie = createRunLifecycle({ db, events: createMemoryEventLog() });
    const reaper = createRunLifecycle({ db, events: createMemoryEventLog() });
    expect(await zombie.claim(runId)).not.toBeNull();
    expect(await reaper.finish(runId, { status: 'failed', error: 'gone' }, ['running'])).toBe(true);
    await zombie.recordNode(runId, ended('input_in01'));
    expect(await zombie.finish(runId, { status: 'succeeded', text: 'late' })).toBe(false);
    expect(await db.select().from(nodeExecutions).where(eq(nodeExecutions.runId, runId))).toHaveLength(0);
    const [run] = await db.select().from(runs).where(eq(runs.id, runId));
    expect(run).toMatchObject({ status: 'failed', error: 'gone' });
  });
});
