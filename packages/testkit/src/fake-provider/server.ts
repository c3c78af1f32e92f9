import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseBody, readBody } from './body';
import { ApiError, sendError } from './errors';
import { sendJson } from './exchange';
import { authenticate, findRoute } from './routes';
import type { Exchange, FakeProvider, FakeProviderOptions, ProviderState, RecordedRequest } from './types';

/** Starts the fake provider on a free port of `host`; call `close()` when done. */
export async function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const host = options.host ?? '127.0.0.1';
  const state: ProviderState = {
    apiKey: options.apiKey ?? 'test-key',
    tokenDelayMs: options.tokenDelayMs ?? 0,
    firstTokenDelayMs: options.firstTokenDelayMs ?? null,
    embeddingDimensions: options.embeddingDimensions ?? 64,
    baseUrl: '',
    toolScripts: [],
    flakyModelsSeen: new Set(),
    files: new Map(),
    videos: new Map(),
  };
  const requests: RecordedRequest[] = [];
  let aborted = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let closed = false;
    const disconnected = new Promise<void>((resolve) => {
      res.once('close', () => {
        closed = true;
        // 'close' also follows a completed answer; only an unfinished one means the client left.
        if (!res.writableFinished) aborted += 1;
        resolve();
      });
    });
    const url = new URL(req.url ?? '/', 'http://fake-provider');
    const body = await parseBody(req, await readBody(req));
    requests.push({
      method: req.method ?? '',
      path: req.url ?? '/',
      headers: { ...req.headers },
      body: body.recorded,
    });

    const route = findRoute(req, url.pathname);
    const ex: Exchange = {
      req,
      res,
      url,
      dialect: route?.dialect ?? 'openai',
      params: route?.params ?? [],
      deployment: route?.dialect === 'azure' ? decodeURIComponent(route.params[0] ?? '') : undefined,
      json: body.json,
      form: body.form,
      state,
      isClosed: () => closed,
      disconnected,
    };
    try {
      if (!route) throw new ApiError(404, 'not-found', `Invalid URL (${req.method} ${url.pathname})`);
      authenticate(ex);
      if (body.error) throw body.error;
      await route.handle(ex);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (!res.headersSent) sendError(res, ex.dialect, error);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the fake itself: make it loud in the failing test instead of hanging it.
      if (res.headersSent) res.destroy();
      else
        sendJson(res, 500, {
          error: { message: `fake provider failure: ${String(error)}`, type: 'server_error' },
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  state.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: state.baseUrl,
    requests,
    scriptToolCalls: (calls) => {
      state.toolScripts.push(calls.map((call) => ({ ...call })));
    },
    setTokenDelay: (ms) => {
      state.tokenDelayMs = ms;
    },
    aborted: () => aborted,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Stalled requests and keep-alive sockets would otherwise hold close() open forever.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
