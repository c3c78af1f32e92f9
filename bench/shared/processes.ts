// What the benchmarks share: starting Atelier's processes on free ports, waiting for them, calling them.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const ADMIN = { email: 'bench@atelier.test', password: 'Bench-Pass-123!' };
export const ENCRYPTION_KEY = Buffer.alloc(32, 3).toString('base64');
const children: ChildProcess[] = [];

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Node in a process of its own (killed when the benchmark ends). */
function spawnNode(args: string[], env: NodeJS.ProcessEnv, cwd: string): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return child;
}

/** A TypeScript entry point in a process of its own (killed when the benchmark ends). */
export const start = (args: string[], env: NodeJS.ProcessEnv, cwd: string): ChildProcess =>
  spawnNode(['--import', 'tsx', ...args], env, cwd);

export function stopAll() {
  for (const child of children) child.kill('SIGTERM');
}

export const firstLine = (child: ChildProcess) =>
  new Promise<string>((resolve) =>
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim().split('\n')[0]!)),
  );

export async function waitFor(url: string) {
  // Up to 6 minutes: a loaded machine starts several processes (and PGlite) slowly.
  for (let i = 0; i < 720; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

/** The API in a process of its own, on a fresh data directory; answers its base URL once it is up. */
export async function startApi(env: NodeJS.ProcessEnv, extraArgs: string[] = []): Promise<string> {
  return (await launchApi(env, extraArgs)).base;
}

/**
 * The API is measured as it runs in production, built JavaScript (`node --conditions=atelier-dist
 * dist/server.js`, as the Docker image starts it), built once per bench run; BENCH_FROM_SOURCE=1 runs
 * `src/server.ts` through tsx instead (its loader costs CPU and memory production does not pay).
 */
const fromSource = process.env.BENCH_FROM_SOURCE === '1';
let built = false;
function apiEntry(): string[] {
  if (fromSource) return ['--import', 'tsx', 'src/server.ts'];
  if (!built) {
    execFileSync('npx', ['-y', 'pnpm@10', 'exec', 'turbo', 'run', 'build', '--filter=@atelier/api'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    built = true;
  }
  return ['--conditions=atelier-dist', 'dist/server.js'];
}

/** startApi, with the process (for benches that watch its memory). */
export async function launchApi(
  env: NodeJS.ProcessEnv,
  extraArgs: string[] = [],
): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  // BENCH_PROFILE=dir writes a CPU profile of each API process there.
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : [];
  // BENCH_API_ARGS: more Node options for the API process (space-separated), for experiments.
  const apiArgs = (process.env.BENCH_API_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawnNode(
    [...profile, ...apiArgs, ...extraArgs, ...apiEntry()],
    {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'atelier-bench-')),
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-0',
      ENCRYPTION_KEY,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      MONTHLY_CREDITS: '100000000',
      LOGIN_RATE_PER_IP_PER_MINUTE: '100000',
      // A bench is one user sending thousands of calls: the per-user limits of the costly routes would
      // measure the limiter, not the product.
      CHAT_MESSAGES_PER_USER_PER_MINUTE: '100000000',
      RUNS_PER_USER_PER_MINUTE: '100000000',
      MODEL_CALLS_PER_USER_PER_MINUTE: '100000000',
      ...env,
    },
    join(root, 'apps', 'api'),
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/health`);
  return { base, child };
}

export async function api<T>(
  base: string,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : null,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export const login = async (base: string) =>
  (await api<{ access_token: string }>(base, null, 'POST', '/token', ADMIN)).access_token;
