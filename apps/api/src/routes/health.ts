import { healthAnswer } from '@atelier/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref(),
    ),
  ]);
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
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Database and queue status (503 when one of them is down)',
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
      const ok = db.status === 'ok' && queue.status === 'ok';
      return reply
        .status(ok ? 200 : 503)
        .send({ status: ok ? 'ok' : 'degraded', db, queue, version: '0.1.0' });
    },
  );
};

export default healthRoutes;
