import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The server as `pnpm start` runs it on the embedded default (no DATABASE_URL): its database is PGlite
 * in a process of its own (packages/db/src/embedded), which ends with the server. The other suites open
 * PGlite in their own process (it starts faster).
 */

const children = (pid: number): number[] => {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return text ? text.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(check: () => T | Promise<T>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) child.kill('SIGKILL');
});

async function startServer(dataDir: string) {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET: 'embedded-server-secret-embedded-server-0',
    ADMIN_EMAIL: 'embedded-admin@example.test',
    ADMIN_PASSWORD: 'Embedded-Pass-123!',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  started.push(server);
  const base = `http://127.0.0.1:${port}`;
  const health = await until(
    () =>
      fetch(`${base}/health`)
        .then((r) => (r.ok ? (r.json() as Promise<{ db: { kind: string } }>) : null))
        .catch(() => null),
    150_000,
  );
  return { server, base, health };
}

describe('the server on the embedded default', () => {
  it('serves from its database process, which ends with it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'atelier-embedded-server-'));
    const first = await startServer(dataDir);
    expect(first.health).toMatchObject({ db: { kind: 'pglite', status: 'ok' } });
    const [database] = children(first.server.pid!);
    expect(database).toBeDefined();
    const login = await fetch(`${first.base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'embedded-admin@example.test', password: 'Embedded-Pass-123!' }),
    });
    expect(login.status).toBe(200);

    first.server.kill('SIGTERM');
    expect(await until(() => !alive(database!) && first.server.exitCode !== null, 30_000)).toBe(true);
    expect(first.server.exitCode).toBe(0);
    // Killed outright instead, it leaves no orphan either: packages/db/test/embedded-process.test.ts.
  }, 240_000);
});
