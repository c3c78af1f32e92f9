import { createServer, type Server } from 'node:http';

/** How long a probe of PostgreSQL or Redis may take before it counts as down. */
const PROBE_MS = 2_000;

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'error'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), PROBE_MS);
      }),
    ]);
    return 'ok';
  } catch {
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The worker's health for orchestrators (compose, Kubernetes): GET /health answers 200 when it reaches
 * PostgreSQL and Redis (where it takes runs), 503 otherwise, with the runs it is executing.
 */
export function startHealthServer(options: {
  port: number;
  pingDb(): Promise<unknown>;
  pingRedis(): Promise<unknown>;
  active(): number;
}): Server {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/health') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ detail: 'Only GET /health is served here.', code: 'route_not_found' }));
      return;
    }
    void Promise.all([probe(options.pingDb), probe(options.pingRedis)]).then(([db, redis]) => {
      const ok = db === 'ok' && redis === 'ok';
      response.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ status: ok ? 'ok' : 'degraded', db, redis, active_runs: options.active() }),
      );
    });
  });
  server.listen(options.port);
  return server;
}
