import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeExecutions, organizations, runs, type Db } from '@atelier/db';
import { sharedTestDatabase } from '@atelier/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFlowConfigs,
  createMemoryCancelBus,
  createMemoryEventLog,
  createRunExecutor,
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

/** The database, except that the statement writing runs' outcomes fails `failures` times. */
function failingOutcomeWrites(db: Db, failures: number): Db {
  let left = failures;
  // The run writes go to the database's own client (Statements, see @atelier/db): its `query` fails.
  type Client = { query(text: string, values: unknown[]): Promise<unknown> };
  const client = (db as unknown as { $client: Client }).$client;
  const failing: Client = {
    query(text, values) {
      if (text.includes('update runs r set status = o.status') && left > 0) {
        left -= 1;
        return Promise.reject(new Error('simulated write failure'));
      }
      return client.query(text, values);
    },
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === '$client') return failing;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

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
  });
});
