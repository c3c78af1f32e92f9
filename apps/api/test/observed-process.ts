// Runs test/fixtures/observed-api.ts (or the worker) as a process of its own, collecting its log lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const apiDir = fileURLToPath(new URL('..', import.meta.url));
export const workerDir = fileURLToPath(new URL('../../worker', import.meta.url));

export interface Observed {
  child: ChildProcess;
  /** Every JSON log line it wrote to stdout, parsed. */
  lines: Record<string, unknown>[];
  stop(): Promise<void>;
}

function collect(child: ChildProcess, lines: Record<string, unknown>[]) {
  let buffer = '';
  child.stdout!.on('data', (d: Buffer) => {
    buffer += d.toString();
    let cut;
    while ((cut = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 1);
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
}

const stopper = (child: ChildProcess) => () =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });

/** Starts the observed API with `env` (its configuration); answers once it printed its ready line. */
export function startObservedApi(
  env: Record<string, string>,
  fakeProviderUrl: string,
): Promise<Observed & { base: string; token: string; workflow: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/observed-api.ts'], {
    cwd: apiDir,
    env: { ...process.env, FIXTURE_ENV: JSON.stringify(env), FAKE_PROVIDER_URL: fakeProviderUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  collect(child, lines);
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const ready = err.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (ready) {
        const info = JSON.parse(ready) as { base: string; token: string; workflow: string };
        resolve({ child, lines, stop: stopper(child), ...info });
      }
    });
    child.once('exit', (code) => reject(new Error(`the observed API exited (${code}): ${err}`)));
  });
}

/** Starts a worker with `env` added to the test's environment; answers once it is ready. */
export function startObservedWorker(env: Record<string, string>): Promise<Observed> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/index.ts'], {
    cwd: workerDir,
    env: { ...process.env, ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Record<string, unknown>[] = [];
  collect(child, lines);
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (lines.some((l) => l.msg === 'worker ready')) {
        clearInterval(timer);
        resolve({ child, lines, stop: stopper(child) });
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`the worker exited (${code})`));
    });
  });
}
