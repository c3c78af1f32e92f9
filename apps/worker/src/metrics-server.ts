import { createServer, type Server } from 'node:http';
import { canReadMetrics, enableProcessMetrics, metricsText } from '@atelier/telemetry';

/**
 * The worker's own metrics, for Prometheus to scrape (pull, as for the API): `GET /metrics` on its own
 * port, with the bearer token when one is configured. Everything else answers 404.
 */
export async function startMetricsServer(options: {
  port: number;
  host: string;
  token: string | undefined;
}): Promise<Server> {
  enableProcessMetrics();
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"detail":"Not found.","code":"route_not_found"}');
      return;
    }
    if (!canReadMetrics(req.headers.authorization, options.token)) {
      res
        .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' })
        .end('{"detail":"The metrics need the bearer token set in METRICS_TOKEN.","code":"invalid_token"}');
      return;
    }
    metricsText().then(
      ({ body, contentType }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  return server;
}
