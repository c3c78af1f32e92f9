import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, queryRows, type Database } from '../src';

// Statements sent again and again are prepared once per connection (src/preparing-client.ts), on
// PostgreSQL and on the embedded database's socket alike.

let database: Database;
const suffix = Math.random().toString(36).slice(2, 8);

beforeAll(async () => {
  database = process.env.DATABASE_URL
    ? await openDatabase({ url: process.env.DATABASE_URL, poolSize: 1 })
    : await openDatabase({
        embedded: 'process',
        dataDir: join(mkdtempSync(join(tmpdir(), 'atelier-prepared-')), 'pglite'),
      });
}, 120_000);

afterAll(async () => {
  await database?.close();
});

const prepared = async (text: string) =>
  (
    await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from pg_prepared_statements where statement = ${text}`,
    )
  )[0]!.n;

describe('statements prepared once per connection', () => {
  it('prepares a parameterized statement from its second call, with the same answers', async () => {
    const text = `select $1::int + 1 as n, '${suffix}' as tag`;
    const answers: number[] = [];
    for (const value of [1, 2, 3, 4]) {
      const [row] = await queryRows<{ n: number }>(database.db, sql.raw(text.replace('$1', String(value))));
      answers.push(row!.n);
      const [same] = await queryRows<{ n: number }>(
        database.db,
        sql`select ${value}::int + 1 as n, ${sql.raw(`'${suffix}'`)} as tag`,
      );
      expect(same!.n).toBe(value + 1);
    }
    expect(answers).toEqual([2, 3, 4, 5]);
    // The parameterized text is prepared (once per connection); the one without parameters is not.
    expect(await prepared(text)).toBeGreaterThanOrEqual(1);
    expect(await prepared(text.replace('$1', '4'))).toBe(0);
  });

  it.runIf(process.env.DATABASE_URL)(
    "keeps a connection, with its prepared statements, through a lull longer than pg's default 10 s",
    async () => {
      const text = `select $1::int as n, pg_backend_pid() as pid, '${suffix}-lull' as tag`;
      const ask = async () =>
        (
          await queryRows<{ pid: number }>(
            database.db,
            sql`select ${1}::int as n, pg_backend_pid() as pid, ${sql.raw(`'${suffix}-lull'`)} as tag`,
          )
        )[0]!.pid;
      await ask();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      let before: number;
      try {
        before = await ask(); // released under fake timers: its idle timer is one of them
        vi.advanceTimersByTime(11_000);
      } finally {
        vi.useRealTimers();
      }
      await new Promise((resolve) => setTimeout(resolve, 50)); // a closed connection has gone by now
      expect(await ask()).toBe(before);
      expect(await prepared(text)).toBe(1);
    },
  );

  it('prepares again, and answers, when the result columns of a prepared statement change', async () => {
    const table = `prepared_${suffix}`;
    await database.db.execute(sql.raw(`create table ${table} (a int)`));
    await database.db.execute(sql.raw(`insert into ${table} values (1), (2)`));
    const read = () =>
      queryRows<Record<string, unknown>>(database.db, sql`select * from ${sql.raw(table)} where a = ${1}`);
    for (let i = 0; i < 3; i++) expect(await read()).toEqual([{ a: 1 }]);
    expect(await prepared(`select * from ${table} where a = $1`)).toBeGreaterThanOrEqual(1);

    await database.db.execute(sql.raw(`alter table ${table} add column b text default 'x'`));
    expect(await read()).toEqual([{ a: 1, b: 'x' }]);

    // In a transaction the failed call cannot be retried (the block is failed); the next one works.
    // (On PostgreSQL, with one connection: the embedded pool may take another, which prepares anew.)
    for (let i = 0; i < 3; i++) await read();
    await database.db.execute(sql.raw(`alter table ${table} add column c int default 7`));
    const inTransaction = database.db.transaction((tx) =>
      queryRows(tx, sql`select * from ${sql.raw(table)} where a = ${1}`),
    );
    const failure = await inTransaction.then(
      () => null,
      (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
    );
    if (process.env.DATABASE_URL) expect(failure).toMatch(/cached plan must not change result type/);
    expect(await read()).toEqual([{ a: 1, b: 'x', c: 7 }]);
    await database.db.execute(sql.raw(`drop table ${table}`));
  });
});
