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
  statementRowsTogether,
  stmt,
  verbatim,
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

describe('statementRowsTogether', () => {
  const txid = () => stmt`select txid_current()::text as txid`;

  it.runIf(process.env.DATABASE_URL)(
    "runs one key's statements of one turn in one transaction, each answered its own rows",
    async () => {
      const [a, b, c, other] = await Promise.all([
        statementRowsTogether<{ txid: string }>(database.db, txid(), 'org-a'),
        statementRowsTogether<{ txid: string }>(database.db, txid(), 'org-a'),
        statementRowsTogether<{ n: number }>(database.db, stmt`select ${41}::int + 1 as n`, 'org-a'),
        statementRowsTogether<{ txid: string }>(database.db, txid(), 'org-b'),
      ]);
      expect(a![0]!.txid).toBe(b![0]!.txid);
      expect(c).toEqual([{ n: 42 }]);
      // Another key: a transaction of its own (so two never lock each other's rows in turn).
      expect(other![0]!.txid).not.toBe(a![0]!.txid);
      // A later turn: a transaction of its own.
      const [later] = await statementRowsTogether<{ txid: string }>(database.db, txid(), 'org-a');
      expect(later!.txid).not.toBe(a![0]!.txid);
    },
  );

  it.runIf(process.env.DATABASE_URL)(
    "while a key's transaction runs, what comes for the key waits and runs in the next one, together",
    async () => {
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const first = statementRowsTogether<{ txid: string; ended: Date }>(
        database.db,
        stmt`select txid_current()::text as txid, pg_sleep(0.3)::text as slept, clock_timestamp() as ended`,
        'org-c',
      );
      const later: Promise<{ txid: string; began: Date }[]>[] = [];
      for (let i = 0; i < 3; i++) {
        await pause(30); // each in a turn of its own, all while the first runs
        later.push(
          statementRowsTogether(
            database.db,
            stmt`select txid_current()::text as txid, now() as began`,
            'org-c',
          ),
        );
      }
      const [[done], ...rest] = await Promise.all([first, ...later]);
      const rows = rest.map(([row]) => row!);
      // One transaction for the three, begun once the first had ended: no second one waiting on its rows.
      expect(new Set(rows.map((r) => r.txid)).size).toBe(1);
      expect(rows[0]!.txid).not.toBe(done!.txid);
      expect(new Date(rows[0]!.began).getTime()).toBeGreaterThanOrEqual(new Date(done!.ended).getTime());
    },
  );

  it('a statement that fails fails alone: the others of its turn are written', async () => {
    const row = (name: string) => ({ name, payload: { list: [], text: name } });
    const results = await Promise.allSettled([
      statementRowsTogether(database.db, insertInto(things, ['name', 'payload'], row('together-1')), 'k'),
      statementRowsTogether(
        database.db,
        insertInto(things, ['name', 'payload'], { name: null as never, payload: {} as never }),
        'k',
      ),
      statementRowsTogether(database.db, insertInto(things, ['name', 'payload'], row('together-2')), 'k'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/null/);
    const names = await statementRows<{ name: string }>(
      database.db,
      stmt`select name from ${verbatim(`statement_things_${suffix}`)} where name like 'together-%' order by name`,
    );
    expect(names.map((r) => r.name)).toEqual(['together-1', 'together-2']);
  });
});
