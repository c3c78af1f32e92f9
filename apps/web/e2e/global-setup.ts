import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeProvider, startFakeWeb } from '@atelier/testkit';
import type { TestProject } from 'vitest/node';
import { build, preview } from 'vite';

export const ADMIN = { email: 'admin@e2e.test', password: 'E2e-Admin-Pass-1' };

declare module 'vitest' {
  export interface ProvidedContext {
    webUrl: string;
    apiUrl: string;
    admin: { email: string; password: string };
    /** No Chromium on this machine (outside CI): the browser tests are skipped with a warning. */
    noBrowser: boolean;
    /** An OpenAI-compatible fake provider (key 'test-key') for the providers page. */
    fakeProviderUrl: string;
    /** A small web site (on 127.0.0.1, which the API's loaders may reach) for web pages in collections. */
    fakeWebUrl: string;
  }
}

const webRoot = fileURLToPath(new URL('..', import.meta.url));
const apiRoot = fileURLToPath(new URL('../../api', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** How long the API may take to start: 90 s, or E2E_START_TIMEOUT_MS on a machine shared and loaded. */
const START_TIMEOUT_MS = Number(process.env.E2E_START_TIMEOUT_MS) || 90_000;

async function waitFor(url: string, api: ChildProcess, timeoutMs = START_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (api.exitCode !== null) throw new Error(`the API exited with code ${api.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** A fresh embedded database, the real API on it, and the production build of the app in front. */
export default async function setup(project: TestProject) {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    if (process.env.CI)
      throw new Error(`Chromium is missing at ${chromium}; .ci/run installs it (apt-get install chromium).`);
    console.warn(`\n  Browser tests skipped: no Chromium at ${chromium} (apt-get install chromium).\n`);
    project.provide('noBrowser', true);
    return;
  }
  project.provide('noBrowser', false);
  const [apiPort, webPort] = [await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const webUrl = `http://127.0.0.1:${webPort}`;
  const outDir = join(webRoot, 'test-results', 'e2e-dist');

  process.env.VITE_API_URL = apiUrl;
  // The build users get: vitest runs with NODE_ENV=test, which vite keeps and React's JSX transform reads
  // as development (jsxDEV, owner stacks, dev warnings: several times slower, a page busy while it streams).
  const testEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  await build({ root: webRoot, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  // The embeddable chat's own bundle, served by the API (EMBED_DIST_DIR).
  const embedOutDir = join(webRoot, 'test-results', 'e2e-embed-dist');
  await build({
    root: webRoot,
    configFile: join(webRoot, 'vite.embed.config.ts'),
    logLevel: 'warn',
    build: { outDir: embedOutDir, emptyOutDir: true },
  });
  process.env.NODE_ENV = testEnv;

  // A help-center page to add to a collection by its address.
  const site = await startFakeWeb({
    routes: {
      '/help/returns':
        '<!doctype html><html><head><title>Returns</title></head><body><nav>Home · Shop</nav>' +
        '<main><h1>Returns</h1><p>Lamps bought at Atelier Lab may be returned within 60 days.</p></main></body></html>',
    },
  });
  const api = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      REDIS_URL: '',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'atelier-e2e-')),
      JWT_SECRET: 'e2e-secret-e2e-secret-e2e-secret-0123',
      ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      WEB_ORIGIN: webUrl,
      EMBED_DIST_DIR: embedOutDir,
      PUBLIC_API_URL: apiUrl,
      LOG_LEVEL: 'warn',
      // The fake web site above is on 127.0.0.1: its pages may be added to collections.
      NODE_URL_ALLOW: '127.0.0.1',
      LOGIN_RATE_PER_IP_PER_MINUTE: '10000',
      // The embed tests reopen one browser's chat many times within a minute.
      EMBED_REQUESTS_PER_BROWSER_PER_MINUTE: '1000',
    },
  });
  const server = await preview({
    root: webRoot,
    logLevel: 'warn',
    build: { outDir },
    preview: { port: webPort, strictPort: true, host: '127.0.0.1' },
  });
  await waitFor(`${apiUrl}/health`, api);
  // A small delay per token, so that browser tests can see answers arrive piece by piece.
  const fake = await startFakeProvider({ apiKey: 'test-key', tokenDelayMs: 20 });

  project.provide('webUrl', webUrl);
  project.provide('apiUrl', apiUrl);
  project.provide('admin', ADMIN);
  project.provide('fakeProviderUrl', fake.url);
  project.provide('fakeWebUrl', site.url);

  return async () => {
    api.kill('SIGTERM');
    await fake.close();
    await site.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  };
}
