import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** What the fake site answers at one path. A plain string is an HTML page. */
export interface FakeWebRoute {
  status?: number;
  /** Default text/html; charset=utf-8 (none when `body` is bytes and no type is given). */
  contentType?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Answers 302 (or `status`) with this Location. */
  redirect?: string;
  /** Waits this long before answering. */
  delayMs?: number;
  /** Sends the headers and half the body, then waits this long before the rest. */
  stallMs?: number;
  /** Sends the body gzip-compressed with Content-Encoding: gzip. */
  gzip?: boolean;
}

export interface FakeHttpRequest {
  method: string;
  /** Path with its query string. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface FakeWeb {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Routes by path (query string included when a route names one, else without); may be changed. */
  routes: Map<string, FakeWebRoute | string>;
  requests: FakeHttpRequest[];
  close(): Promise<void>;
}

export interface FakeServer {
  url: string;
  requests: FakeHttpRequest[];
  close(): Promise<void>;
}

/** A local HTTP server recording every request, for the fakes of this kit. */
export async function listen(
  handle: (req: FakeHttpRequest, res: ServerResponse) => void | Promise<void>,
  host = '127.0.0.1',
): Promise<FakeServer> {
  const requests: FakeHttpRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      Promise.resolve(handle(request, res)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends a JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A small web site: fixed answers by path, redirects, delays and gzip, 404 for anything else. */
export async function startFakeWeb(
  options: { routes?: Record<string, FakeWebRoute | string>; host?: string } = {},
): Promise<FakeWeb> {
  const routes = new Map(Object.entries(options.routes ?? {}));
  const server = await listen(async (req, res) => {
    const found = routes.get(req.path) ?? routes.get(req.path.split('?')[0]!);
    if (found === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('Not found');
    }
    const route: FakeWebRoute = typeof found === 'string' ? { body: found } : found;
    if (route.delayMs) await wait(route.delayMs);
    if (route.redirect) {
      res.writeHead(route.status ?? 302, { location: route.redirect, ...route.headers });
      return void res.end();
    }
    const raw = typeof route.body === 'string' ? Buffer.from(route.body) : Buffer.from(route.body ?? '');
    const type =
      route.contentType ?? (typeof route.body === 'string' ? 'text/html; charset=utf-8' : undefined);
    res.writeHead(route.status ?? 200, {
      ...(type ? { 'content-type': type } : {}),
      ...(route.gzip ? { 'content-encoding': 'gzip' } : {}),
      ...route.headers,
    });
    const body = route.gzip ? gzipSync(raw) : raw;
    if (route.stallMs) {
      res.write(body.subarray(0, body.length >> 1));
      await wait(route.stallMs);
      if (res.destroyed) return;
    }
    res.end(route.stallMs ? body.subarray(body.length >> 1) : body);
  }, options.host);
  return { ...server, routes };
}

/** A sitemap (`<urlset>`) or, with `index`, a sitemap index naming other sitemaps. */
export function sitemapXml(urls: string[], index = false): string {
  const tag = index ? 'sitemap' : 'url';
  const root = index ? 'sitemapindex' : 'urlset';
  const items = urls.map((url) => `  <${tag}><loc>${url.replace(/&/g, '&amp;')}</loc></${tag}>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items}\n</${root}>\n`;
}
