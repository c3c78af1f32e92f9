import { healthAnswer } from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function probe(kind: string, check: () => Promise<unknown>) {
  try {
    await withTimeout(check());
    return { status: 'ok' as const, kind };
  } catch (error) {
    return { status: 'error' as const, kind, detail: (error as Error).message };
  }
}

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { runtime } = app;

  /** The queue: runs waiting and running (database), and the processes executing runs (heartbeats). */
  async function runsNow() {
    const [stats, live] = await withTimeout(Promise.all([runtime.queueStats(), runtime.runners.live()]));
    const stranded = stats.queued > 0 && live.length === 0;
    return {
      queued: stats.queued,
      running: stats.running,
      oldest_queued_seconds: stats.oldestQueuedSeconds,
      live_workers: live.length,
      workers: live.map((w) => ({
        kind: w.kind,
        active: w.active,
        concurrency: w.concurrency,
        since: w.since,
      })),
      ...(stranded
        ? {
            detail: `${stats.queued} run(s) wait and no worker is running: start a worker (apps/worker), or let the API execute runs (RUN_WORKER_IN_API=true).`,
          }
        : {}),
    };
  }

  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Database, Redis and run queue status',
        description:
          '503 when the database or Redis does not answer. `runs` reports the queue (waiting, running, the oldest wait) and the processes executing runs; the status is `degraded` (with 200: this API still serves) when runs wait and no worker is alive.',
        security: [],
        response: { 200: healthAnswer, 503: healthAnswer },
      },
    },
    async (_request, reply) => {
      const [db, queue] = await Promise.all([
        probe(app.database.kind, () => app.database.ping()),
        app.redis
          ? probe('redis', () => app.redis!.ping())
          : Promise.resolve({ status: 'ok' as const, kind: 'in-process' }),
      ]);
      const up = db.status === 'ok' && queue.status === 'ok';
      const runs = up ? await runsNow().catch(() => undefined) : undefined;
      const ok = up && runs !== undefined && runs.detail === undefined;
      return reply
        .status(up ? 200 : 503)
        .send({ status: ok ? 'ok' : 'degraded', db, queue, ...(runs ? { runs } : {}), version: '0.1.0' });
    },
  );
};

export default healthRoutes;
