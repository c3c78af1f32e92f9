import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Knowledge from '@atelier/knowledge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, spawnApi } from './processes';

// What the Docker image runs: the production bundles (`node --conditions=atelier-dist dist/...`), with
// neither tsx nor pnpm. On the embedded default the API starts its database process from the db
// package's bundle, and documents are parsed in threads started from the knowledge package's bundle.
const root = fileURLToPath(new URL('../../../..', import.meta.url));
const ADMIN = { email: 'built@atelier.test', password: 'Built-Pass-123!' };

beforeAll(() => {
  execFileSync('npx', ['-y', 'pnpm@10', 'exec', 'turbo', 'run', 'build', '--filter=@atelier/api'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
}, 320_000);
afterAll(() => killAll());

describe('the production build', () => {
  it('serves on the embedded default: health, login and a signed-in call', async () => {
    const { base } = await spawnApi(
      { DATABASE_URL: '', REDIS_URL: '', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
      { built: true },
    );
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    const login = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
    });
    expect(login.status).toBe(200);
    const { access_token } = (await login.json()) as { access_token: string };
    const me = await fetch(`${base}/users/details/me`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { email: ADMIN.email } });
  });

  it("parses a PDF in a thread started from the knowledge package's bundle", async () => {
    const built = (await import(
      pathToFileURL(`${root}packages/knowledge/dist/index.js`).href
    )) as typeof Knowledge;
    try {
      const doc = await built.parseDocument({
        path: `${root}packages/knowledge/test/fixtures/sample.pdf`,
        filename: 'sample.pdf',
      });
      expect(doc.type).toBe('pdf');
      expect(doc.pages).toEqual([expect.stringContaining('quick brown fox'), 'Second page text.']);
    } finally {
      await built.closeParsePool();
    }
  });

  it('parses in threads of a process started with V8 options (node --max-old-space-size=… as operators do)', () => {
    // Node refuses a thread V8's options when they are given to it explicitly: every parse failed so.
    const script = `const k = await import(${JSON.stringify(pathToFileURL(`${root}packages/knowledge/dist/index.js`).href)});
      const doc = await k.parseDocument({ path: ${JSON.stringify(`${root}packages/knowledge/test/fixtures/sample.pdf`)}, filename: 'sample.pdf' });
      await k.closeParsePool();
      process.stdout.write(doc.type + ' ' + doc.pages.length);`;
    const out = execFileSync(
      process.execPath,
      ['--max-old-space-size=512', '--conditions=atelier-dist', '--input-type=module', '-e', script],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    expect(out).toBe('pdf 2');
  });
});
