import { spawn } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase, queryRows, type Database } from '../src';

// The embedded database as the API and the CLI start it: PGlite in a process of its own, reached with
// node-postgres through a Unix socket (src/embedded/). Its connections share PGlite's one session.

/** The processes `pid` started (Linux). */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, ms = 30_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

/** Entries under a directory that group or others may use. */
function loose(root: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if ((stat.mode & 0o077) !== 0) found.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return found;
}

describe('the embedded database in a process of its own', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'atelier-embedded-')), 'pglite');
  let database: Database;
  let server: number;

  beforeAll(async () => {
    database = await openDatabase({ dataDir, embedded: 'process' });
    await migrateDatabase(database);
    const started = childrenOf(process.pid).filter(alive);
    expect(started.length).toBeGreaterThan(0);
    server = started.at(-1)!;
  });
  afterAll(() => database.close());

  it('is PGlite with the migrations, reference data and pgvector, in owner-only files', async () => {
    expect(database.kind).toBe('pglite');
    const roles = await queryRows<{ id: string }>(database.db, sql`select id from application_roles`);
    expect(roles.length).toBeGreaterThan(0);
    await database.db.execute(sql`create extension if not exists vector`);
    const [row] = await queryRows<{ d: number }>(
      database.db,
      sql`select '[1,2,3]'::vector <-> '[1,2,4]'::vector as d`,
    );
    expect(Number(row?.d)).toBe(1);
    expect(loose(dataDir)).toEqual([]);
  });

  it('keeps each connection its own prepared statements and pipelines whole', async () => {
    // node-postgres prepares a named statement once per connection: every connection of the pool
    // prepares the same name, and extended queries of several connections arrive interleaved.
    const named = database.db
      .select({ v: sql<number>`${sql.placeholder('n')}::int + 1` })
      .from(sql`(select 1) as one`)
      .prepare('embedded_probe');
    const answers = await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        const [a] = await named.execute({ n: i });
        const [b] = await queryRows<{ v: string }>(database.db, sql`select ${String(i)} || 'x' as v`);
        return [Number(a!.v), b!.v];
      }),
    );
    expect(answers).toEqual(Array.from({ length: 120 }, (_, i) => [i + 1, `${i}x`]));
  });

  it('keeps a transaction to its connection: others wait for its end and never see inside it', async () => {
    await database.db.execute(sql`create table embedded_tx (n int)`);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tx = database.db
      .transaction(async (t) => {
        await t.execute(sql`insert into embedded_tx values (1)`);
        await held;
        t.rollback();
      })
      .catch(() => 'rolled back');
    await new Promise((r) => setTimeout(r, 50));
    const counted = queryRows<{ n: string }>(database.db, sql`select count(*)::text as n from embedded_tx`);
    release();
    expect(await tx).toBe('rolled back');
    expect((await counted)[0]!.n).toBe('0');
    await database.db.transaction(async (t) => {
      await t.execute(sql`insert into embedded_tx values (2)`);
    });
    const [after] = await queryRows<{ n: string }>(
      database.db,
      sql`select count(*)::text as n from embedded_tx`,
    );
    expect(after!.n).toBe('1');
  });

  it('reports an error to its caller and goes on serving', async () => {
    await expect(database.db.execute(sql`select * from no_such_table`)).rejects.toThrow(/no_such_table/);
    await database.ping();
  });

  it('is one per data directory: a second opener uses the running one', async () => {
    const second = await openDatabase({ dataDir, embedded: 'process' });
    try {
      const [row] = await queryRows<{ n: string }>(
        second.db,
        sql`select count(*)::text as n from embedded_tx`,
      );
      expect(row!.n).toBe('1');
      expect(childrenOf(process.pid).filter(alive)).toEqual([server]);
    } finally {
      await second.close();
    }
    // Closing the second leaves the first's process serving.
    expect(alive(server)).toBe(true);
    await database.ping();
  });

  it('close() ends the process, and the data is there when it opens again', async () => {
    await database.close();
    expect(alive(server)).toBe(false);
    database = await openDatabase({ dataDir, embedded: 'process' });
    const [row] = await queryRows<{ n: string }>(
      database.db,
      sql`select count(*)::text as n from embedded_tx`,
    );
    expect(row!.n).toBe('1');
  }, 180_000);
});

/**
 * A parent process that opens the embedded database, does `work` (script text with `db` and `sql` in scope), then
 * is killed with SIGKILL: its database process must end too.
 */
async function expectNoOrphan(work = ''): Promise<void> {
  const script = `
    import { openDatabase } from '${new URL('../src/index.ts', import.meta.url).href}';
    import { sql } from 'drizzle-orm';
    const { db } = await openDatabase({ embedded: 'process' });
    const children = (await import('node:fs')).readFileSync('/proc/' + process.pid + '/task/' + process.pid + '/children', 'utf8');
    ${work}
    setTimeout(() => process.stdout.write(children.trim() + '\\n'), 500);
    setInterval(() => undefined, 1000);
  `;
  const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: new URL('..', import.meta.url).pathname,
  });
  try {
    const pids = await new Promise<number[]>((resolve, reject) => {
      parent.stdout.once('data', (d: Buffer) => resolve(d.toString().trim().split(/\s+/).map(Number)));
      parent.once('exit', (code) => reject(new Error(`the parent exited (${code})`)));
    });
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.every(alive)).toBe(true);
    parent.kill('SIGKILL');
    expect(await until(() => !pids.some(alive))).toBe(true);
  } finally {
    parent.kill('SIGKILL');
  }
}

// Starting PGlite in a new process takes seconds, and a minute beside other suites.
describe('when its parent dies', () => {
  it('the database process ends too (no orphan)', () => expectNoOrphan(), 180_000);

  it(
    'the database process ends too while a long statement holds it',
    () =>
      // Minutes of work in one statement (as an index build is): the database's thread is held.
      expectNoOrphan(
        "db.execute(sql.raw('select count(*) from generate_series(1, 4000000000)')).catch(() => undefined);",
      ),
    180_000,
  );
});
