import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { organizations, runs, type Db } from '@atelier/db';
import { isolatedTestDatabase, sharedTestDatabase } from '@atelier/testkit';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFlowConfigs,
  createRunLocks,
  createRuntime,
  RUN_QUEUE_NAME,
  RUNNER_STOPPED,
  type Runtime,
} from '../src';

// Whoever dies, no run stays stuck: any live process (an API that executes nothing included) ends
// runs whose run lock lapsed, and hands the queue back the queued runs it lost.
const REDIS_URL = process.env.REDIS_URL;
const LOCK_MS = 900;
const opened: Runtime[] = [];

let db: Db;
beforeAll(async () => {
  // Opened once, before the tests' own budgets (a new PGlite takes a while on a loaded machine).
  db = (await sharedTestDatabase()).db;
}, 120_000);
afterAll(async () => {
  await Promise.all(opened.map((r) => r.close()));
});

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function orgRuns(db: Db) {
  const [org] = await db.insert(organizations).values({ name: 'Lost runs org' }).returning();
  const base = {
    organizationId: org!.id,
    workspaceId: org!.id,
    chatbotType: 'workflow' as const,
    trigger: 'test' as const,
    configurationHash: await createFlowConfigs(db).store(org!.id, { nodes: [], edges: [] }),
  };
  return { orgId: org!.id, base };
}

function runtimeFor(db: Db, options: { redisUrl?: string; executesRuns: boolean; prefix?: string }) {
  const runtime = createRuntime({
    db,
    redisUrl: options.redisUrl,
    redisPrefix: options.prefix,
    encryptionKey: Buffer.alloc(32, 1),
    providerTimeoutMs: 5_000,
    httpPolicy: { mode: 'public-only', allow: [] },
    providerPolicy: { mode: 'any', allow: [] },
    concurrency: 4,
    executesRuns: options.executesRuns,
    singleProcess: false,
    dataDir: mkdtempSync(join(tmpdir(), 'atelier-lost-')),
    lockDurationMs: LOCK_MS,
    onError: () => undefined,
  });
  opened.push(runtime);
  return runtime;
}

const statusOf = async (db: Db, ids: string[]) =>
  Object.fromEntries(
    (await db.select().from(runs).where(inArray(runs.id, ids))).map((r) => [r.id, [r.status, r.error]]),
  );

describe('lost runs', () => {
  it.skipIf(!REDIS_URL)(
    'an API that executes no runs ends a run whose lock lapsed, leaves a held one, and re-queues a lost queued run',
    async () => {
      // A database of its own: on the shared one, another suite's runtime executing runs (API tests
      // run beside this package) would re-queue and run the lost run before this one is looked at.
      const own = await isolatedTestDatabase();
      const db = own.db;
      const { orgId, base } = await orgRuns(db);
      const ago = (ms: number) => new Date(Date.now() - ms);
      const [dead, held, lost] = await db
        .insert(runs)
        .values([
          { ...base, status: 'running', attempts: 1, heartbeatAt: ago(10 * LOCK_MS) },
          { ...base, status: 'running', attempts: 1, heartbeatAt: new Date() },
          // Stored, never queued: its API died between the two.
          { ...base, status: 'queued', createdAt: ago(10 * LOCK_MS) },
        ])
        .returning();
      // A runner elsewhere keeps holding `held` (its lock renewed a third of the lock at a time).
      const locks = createRunLocks(db, LOCK_MS, () => undefined);
      const release = locks.hold(held!.id, () => undefined);
      const prefix = `atelier-lost-${randomBytes(4).toString('hex')}`;
      runtimeFor(db, { redisUrl: REDIS_URL, executesRuns: false, prefix });

      const queue = new Queue(RUN_QUEUE_NAME, {
        connection: new Redis(REDIS_URL!, { maxRetriesPerRequest: null }),
        prefix,
      });
      try {
        await until(async () => (await statusOf(db, [dead!.id]))[dead!.id]![0] === 'failed');
        await until(async () => (await queue.getJobState(lost!.id)) === 'waiting');
        // Several sweeps later the held run is still running: its runner renews its lock.
        await new Promise((r) => setTimeout(r, 3 * LOCK_MS));
        const now = await statusOf(db, [dead!.id, held!.id, lost!.id]);
        expect(now[dead!.id]).toEqual(['failed', RUNNER_STOPPED]);
        expect(now[held!.id]).toEqual(['running', null]);
        expect(now[lost!.id]).toEqual(['queued', null]);
      } finally {
        release();
        locks.close();
        await queue.obliterate({ force: true }).catch(() => undefined);
        await queue.close();
        await db.delete(runs).where(eq(runs.organizationId, orgId));
        await Promise.all(opened.splice(0).map((r) => r.close()));
        await own.close();
      }
    },
    120_000,
  );

  it('an API restarted after a crash (embedded, no Redis) ends the run the dead process held', async () => {
    const { orgId, base } = await orgRuns(db);
    const [dead] = await db
      .insert(runs)
      .values({
        ...base,
        status: 'running',
        attempts: 1,
        heartbeatAt: new Date(Date.now() - 10 * LOCK_MS),
      })
      .returning();
    const runtime = runtimeFor(db, { executesRuns: true });
    try {
      await until(async () => (await statusOf(db, [dead!.id]))[dead!.id]![0] === 'failed');
      expect((await statusOf(db, [dead!.id]))[dead!.id]).toEqual(['failed', RUNNER_STOPPED]);
    } finally {
      await runtime.shutdown(1_000);
      await db.delete(runs).where(eq(runs.organizationId, orgId));
    }
  }, 60_000);

  it('an API executing runs in process takes a queued run its queue lost', async () => {
    const { orgId, base } = await orgRuns(db);
    const [lost] = await db
      .insert(runs)
      .values({ ...base, status: 'queued', createdAt: new Date(Date.now() - 10 * LOCK_MS) })
      .returning();
    const runtime = runtimeFor(db, { executesRuns: true });
    try {
      // Taken and run once (whatever its empty flow ends as, it left the queue and was not a second take).
      const [row] = await until(async () => {
        const rows = await db.select().from(runs).where(eq(runs.id, lost!.id));
        return rows[0]!.status !== 'queued' && rows[0]!.status !== 'running' && rows;
      });
      expect(row!.attempts).toBe(1);
      expect(row!.error).not.toBe(RUNNER_STOPPED);
      expect(await runtime.runners.live()).toHaveLength(1);
    } finally {
      await runtime.shutdown(1_000);
      await db.delete(runs).where(eq(runs.organizationId, orgId));
    }
  }, 60_000);
});
