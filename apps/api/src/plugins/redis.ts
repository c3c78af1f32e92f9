import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    /** Null in embedded mode (no REDIS_URL): the in-process queue and memory stores are used. */
    redis: Redis | null;
  }
}

export default fp(
  async function redis(app: FastifyInstance, opts: { url: string | undefined }) {
    if (!opts.url) {
      app.decorate('redis', null);
      return;
    }
    // Fails fast while Redis is away (no offline queue, a command timeout): the calls that need it
    // answer 503 within seconds instead of hanging, and work again once it returns.
    const client = new Redis(opts.url, {
      maxRetriesPerRequest: 2,
      enableOfflineQueue: false,
      commandTimeout: 2_000,
      lazyConnect: true,
    });
    client.on('error', (err) => app.log.warn({ err: err.message }, 'redis connection problem'));
    await client.connect();
    app.decorate('redis', client);
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect());
    });
  },
  { name: 'redis' },
);
