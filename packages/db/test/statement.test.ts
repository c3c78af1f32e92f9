import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fromDriver,
  insertInto,
  joinStatements,
  openDatabase,
  render,
  statementRows,
  stmt,
  verbatim,
  writeTogether,
  type Combine,
  type Database,
} from '../src';

// The hot paths' statements (src/statement.ts): numbering, splicing, inserts mapped as drizzle maps
// them, on the database the suite runs on (PostgreSQL with DATABASE_URL, else PGlite in process).

const suffix = Math.random().toString(36).slice(2, 8);
const things = pgTable(`statement_things_${suffix}`, {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  payload: jsonb('payload').$type<{ list: number[]; text: string }>().notNull(),
  price: numeric('price', { precision: 10, scale: 2, mode: 'number' }),
  count: integer('count').notNull().default(0),
  done: boolean('done').notNull().default(false),
  seenAt: timestamp('seen_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

let database: Database;

beforeAll(async () => {
  database = await openDatabase({ url: process.env.DATABASE_URL });
  await database.db.execute(
    sql.raw(`create table statement_things_${suffix} (id uuid primary key default gen_random_uuid(),
      name text not null, payload jsonb not null, price numeric(10, 2), count int not null default 0,
      done boolean not null default false, seen_at timestamptz, created_at timestamptz not null default now())`),
  );
}, 120_000);

afterAll(async () => {
  await database?.db.execute(sql.raw(`drop table if exists statement_things_${suffix}`));
  await database?.close();
});

describe('stmt', () => {
  it('numbers values in order through spliced statements, and keeps verbatim text as text', () => {
    const inner = stmt`b = ${2} and c = ${'three'}`;
    const list = joinStatements([stmt`${4}`, stmt`${5}`, verbatim('6')], ', ');
    const { text, values } = render(stmt`select ${1} where ${inner} and d in (${list}) and e = ${undefined}`);
    expect(text).toBe('select $1 where b = $2 and c = $3 and d in ($4, $5, 6) and e = $6');
    expect(values).toEqual([1, 2, 'three', 4, 5, null]);
    expect(render(joinStatements([], ', ')).text).toBe('');
  });

  it('gives a statement of one shape the same text every time (so it is prepared once)', () => {
    const a = render(
      stmt`with x as (${insertInto(things, ['name', 'payload'], { name: 'a', payload: { list: [], text: '' } })}) select 1`,
    );
    const b = render(
      stmt`with x as (${insertInto(things, ['name', 'payload'], { name: 'b', payload: { list: [1], text: 'x' } })}) select 1`,
    );
    expect(a.text).toBe(b.text);
    expect(a.values).not.toEqual(b.values);
  });
});

describe('insertInto and fromDriver', () => {
  it('writes rows as drizzle would and reads them back as drizzle would', async () => {
    const seenAt = new Date('2026-01-02T03:04:05.678Z');
    const rows = await statementRows<Record<string, unknown>>(
      database.db,
      insertInto(
        things,
        ['name', 'payload', 'price', 'seenAt'],
        [
          { name: 'first', payload: { list: [1, 2], text: 'it\'s \u00e9 "quoted"' }, price: 12.5, seenAt },
          { name: 'second', payload: { list: [], text: '' }, price: null, seenAt: undefined },
        ],
        true,
      ),
    );
    expect(rows).toHaveLength(2);
    const [first, second] = rows.map((r) => fromDriver(things, r));
    expect(first).toMatchObject({
      name: 'first',
      payload: { list: [1, 2], text: 'it\'s \u00e9 "quoted"' },
      price: 12.5,
      count: 0,
      done: false,
      seenAt,
    });
    expect(first!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first!.createdAt).toBeInstanceOf(Date);
    expect(second).toMatchObject({ name: 'second', price: null, seenAt: null });
    // The same rows through drizzle's own select.
    const viaDrizzle = await database.db.select().from(things).orderBy(things.name);
    expect(viaDrizzle).toEqual([first, second]);
  });

  it('refuses nothing silently: a value the column cannot take fails the statement', async () => {
    await expect(
      statementRows(
        database.db,
        insertInto(things, ['name', 'payload'], { name: null as never, payload: {} as never }),
      ),
    ).rejects.toThrow(/null/);
  });
});

describe('writeTogether', () => {
  /** Each item a row: its number, the statement's transaction and the item's value. */
  const numbers: Combine<number> = (items) =>
    stmt`select x.n, x.v, txid_current()::text as txid
         from jsonb_to_recordset(${JSON.stringify(items.map((v, n) => ({ n, v })))}::jsonb) as x(n int, v int)
         where x.v >= 0`;
  /** Another kind: each item's name inserted as a thing; answers how many things there were before. */
  const names: Combine<string> = (items) =>
    stmt`with x as (
           select * from jsonb_to_recordset(${JSON.stringify(items.map((name, n) => ({ n, name })))}::jsonb)
             as x(n int, name text)),
         ins as (insert into ${verbatim(`statement_things_${suffix}`)} (name, payload)
                 select x.name, '{"list": [], "text": ""}'::jsonb from x)
         select x.n, x.name, (select count(*) from ${verbatim(`statement_things_${suffix}`)})::int as before from x`;
  type NumberRow = { n: number; v: number; txid: string };

  it("combines one key's items of one turn in one statement, each answered its own rows", async () => {
    const [a, b, none, other] = await Promise.all([
      writeTogether<number, NumberRow>(database.db, 'org-a', numbers, 7),
      writeTogether<number, NumberRow>(database.db, 'org-a', numbers, 8),
      writeTogether<number, NumberRow>(database.db, 'org-a', numbers, -1),
      writeTogether<number, NumberRow>(database.db, 'org-b', numbers, 9),
    ]);
    expect(a!.map((r) => r.v)).toEqual([7]);
    expect(b!.map((r) => r.v)).toEqual([8]);
    expect(none).toEqual([]); // no row of its own
    expect(a![0]!.txid).toBe(b![0]!.txid);
    // Another key: a statement of its own (so two never lock each other's rows in turn).
    expect(other!.map((r) => r.v)).toEqual([9]);
    expect(other![0]!.txid).not.toBe(a![0]!.txid);
    // A later turn: a statement of its own.
    const [later] = await writeTogether<number, NumberRow>(database.db, 'org-a', numbers, 10);
    expect(later!.txid).not.toBe(a![0]!.txid);
  });

  it('items of two kinds for one key: one statement per kind, one after the other', async () => {
    const [first, second, third] = await Promise.all([
      writeTogether<string, { before: number; name: string }>(database.db, 'k2', names, 'kinds-1'),
      writeTogether<number, NumberRow>(database.db, 'k2', numbers, 1),
      writeTogether<string, { before: number; name: string }>(database.db, 'k2', names, 'kinds-2'),
    ]);
    expect(first!.map((r) => r.name)).toEqual(['kinds-1']);
    expect(third!.map((r) => r.name)).toEqual(['kinds-2']);
    expect(first![0]!.before).toBe(third![0]!.before); // one insert for both names
    expect(second!.map((r) => r.v)).toEqual([1]);
  });

  it.runIf(process.env.DATABASE_URL)(
    "while a key's statement runs, what comes for the key waits and is combined in the next one",
    async () => {
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const slow: Combine<number> = () =>
        stmt`select 0 as n, txid_current()::text as txid, pg_sleep(${0.3})::text as slept, clock_timestamp() as ended`;
      const first = writeTogether<number, { txid: string; ended: Date }>(database.db, 'org-c', slow, 0);
      const later: Promise<{ txid: string; began: Date }[]>[] = [];
      for (let i = 0; i < 3; i++) {
        await pause(30); // each in a turn of its own, all while the first runs
        later.push(
          writeTogether(
            database.db,
            'org-c',
            (items: readonly number[]) =>
              stmt`select x.n, txid_current()::text as txid, now() as began
                   from jsonb_to_recordset(${JSON.stringify(items.map((_, n) => ({ n })))}::jsonb) as x(n int)`,
            i,
          ),
        );
      }
      const [[done], ...rest] = await Promise.all([first, ...later]);
      const rows = rest.map(([row]) => row!);
      // Each of the three is its own kind here (a function of its own), so each a statement of its own,
      // all begun once the first had ended: none waited on its rows inside the database.
      for (const row of rows)
        expect(new Date(row.began).getTime()).toBeGreaterThanOrEqual(new Date(done!.ended).getTime());
      expect(rows.map((r) => r.txid)).not.toContain(done!.txid);
    },
  );

  it('an item that fails fails alone: the others combined with it are written', async () => {
    const results = await Promise.allSettled([
      writeTogether(database.db, 'k', names, 'together-1'),
      writeTogether(database.db, 'k', names, null as never), // name is not null
      writeTogether(database.db, 'k', names, 'together-2'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/null/);
    const stored = await statementRows<{ name: string }>(
      database.db,
      stmt`select name from ${verbatim(`statement_things_${suffix}`)} where name like 'together-%' order by name`,
    );
    expect(stored.map((r) => r.name)).toEqual(['together-1', 'together-2']);
  });
});
