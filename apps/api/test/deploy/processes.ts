import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Real API and worker processes for the tests that signal them (SIGTERM, SIGKILL).
const apiDir = fileURLToPath(new URL('../..', import.meta.url));
const workerDir = fileURLToPath(new URL('../../../worker', import.meta.url));
export const SHARED_ENV = {
  NODE_ENV: 'test',
  JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  LOG_LEVEL: 'warn',
};
const children: ChildProcess[] = [];

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

function launch(cwd: string, entry: string | string[], env: Record<string, string>): ChildProcess {
  const args = typeof entry === 'string' ? ['--import', 'tsx', entry] : entry;
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...SHARED_ENV, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return child;
}

/**
 * An API process on a free port; answers once /health answers. `built`: the production bundle
 * (`node --conditions=atelier-dist dist/server.js`, as the Docker image starts it; build it first).
 */
export async function spawnApi(
  env: Record<string, string>,
  options: { built?: boolean } = {},
): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const entry = options.built ? ['--conditions=atelier-dist', 'dist/server.js'] : 'src/server.ts';
  const child = launch(apiDir, entry, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'atelier-proc-')),
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the API exited (${child.exitCode}) before it was up`);
    const up = await fetch(`${base}/health`).then(
      (r) => r.status < 500,
      () => false,
    );
    if (up) return { child, base };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the API did not come up');
}

/** A worker process; answers once it says it is ready (an info line, so its log level is info). */
export function spawnWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = launch(workerDir, 'src/index.ts', { ...env, LOG_LEVEL: 'info' });
  return new Promise((resolve, reject) => {
    let out = '';
    const late = setTimeout(
      () => reject(new Error(`the worker did not say it was ready in 120 s: ${out}`)),
      120_000,
    );
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('worker ready')) {
        clearTimeout(late);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(late);
      reject(new Error(`worker exited (${code}) before it was ready: ${out}`));
    });
  });
}

/** Every process still running, killed (the end of a test file). */
export function killAll() {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** One SSE block as sent: its id, data and retry lines. */
export interface SseBlock {
  id: string | null;
  data: string;
  retry: number | null;
}

/** The blocks of an event stream as they come, heartbeats left out. */
export async function* sseBlocks(res: Response): AsyncGenerator<SseBlock> {
  if (!res.ok || !res.body) throw new Error(`stream refused: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const parsed: SseBlock = { id: null, data: '', retry: null };
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) parsed.id = line.slice(4);
          if (line.startsWith('data: ')) parsed.data = line.slice(6);
          if (line.startsWith('retry: ')) parsed.retry = Number(line.slice(7));
        }
        if (parsed.data.includes('"type":"heartbeat"')) continue;
        yield parsed;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
