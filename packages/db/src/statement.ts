import { getTableColumns, getTableName, type Table } from 'drizzle-orm';
import type { Db } from './client';

/**
 * SQL for the hot paths (a chat answer's writes), put together without the query builder.
 *
 * Why not drizzle there: rendering a drizzle statement walks its whole tree of chunks, with a
 * prototype-chain type test per chunk, every time it is sent. For the long CTE statements a chat answer
 * writes (its message, its inference log, its charge) that was the largest single CPU cost of an answer
 * in the API (about 17% of its busy time in `bench:chat`). A `Statement` is its text pieces and its values;
 * rendering is one pass of string joins, and the text of a given shape is the same on every call, so the
 * preparing client (preparing-client.ts) prepares it once per connection.
 *
 * Use it only where a profile shows the builder's cost; everywhere else drizzle stays the way to query.
 */
export class Statement {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

/**
 * `stmt\`... ${value} ...\``: each value becomes a parameter ($1, $2, ...) when the statement is
 * rendered; a value that is itself a Statement is spliced in, its parameters numbered in order.
 */
export function stmt(strings: TemplateStringsArray | readonly string[], ...values: unknown[]): Statement {
  return new Statement(strings, values);
}

/** Text written as is (a name, a fixed fragment): never a value that came from a caller. */
export const verbatim = (text: string): Statement => new Statement([text], []);

/** The statements joined with `separator` (verbatim text). */
export function joinStatements(parts: readonly Statement[], separator: string): Statement {
  if (parts.length === 0) return verbatim('');
  return new Statement(['', ...parts.slice(1).map(() => separator), ''], parts);
}

/** The text with numbered parameters, and their values in order. */
export function render(statement: Statement): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  let text = '';
  const walk = (s: Statement) => {
    text += s.strings[0]!;
    for (let i = 0; i < s.values.length; i++) {
      const value = s.values[i];
      if (value instanceof Statement) walk(value);
      else {
        values.push(value === undefined ? null : value);
        text += `$${values.length}`;
      }
      text += s.strings[i + 1]!;
    }
  };
  walk(statement);
  return { text, values };
}

interface RawClient {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Sends the statement on the database's own client (node-postgres pool, or PGlite: both take a text
 * and its values and answer `{ rows }`), and answers its rows as the driver parsed them (snake_case
 * names, timestamps as Date).
 */
export async function statementRows<T>(db: Db, statement: Statement): Promise<T[]> {
  const client = (db as unknown as { $client: RawClient }).$client;
  const { text, values } = render(statement);
  return (await client.query(text, values)).rows as T[];
}

type Columns = ReturnType<typeof getTableColumns<Table>>;
const insertTexts = new Map<string, string[]>();
/** Texts kept at most (batches of every size of a few tables fit). */
const MAX_INSERT_TEXTS = 2000;

/**
 * An insert of `rows`' `keys` (the table's property names) into `table`, each value mapped to the
 * driver as drizzle maps it (jsonb to JSON text, timestamps to ISO text; undefined is null); the text
 * is made once per table, keys and number of rows. With `returning`, the statement answers the whole
 * rows (read them with `fromDriver`).
 */
export function insertInto<T extends Table>(
  table: T,
  keys: readonly (keyof T['$inferInsert'] & string)[],
  rows: T['$inferInsert'] | readonly T['$inferInsert'][],
  returning = false,
): Statement {
  const list = (Array.isArray(rows) ? rows : [rows]) as readonly Record<string, unknown>[];
  const columns = getTableColumns(table) as Columns;
  const cacheKey = `${getTableName(table)}:${keys.join(',')}:${list.length}:${returning}`;
  let strings = insertTexts.get(cacheKey);
  if (!strings) {
    const names = keys.map((key) => `"${columns[key]!.name}"`).join(', ');
    strings = [`insert into "${getTableName(table)}" (${names}) values (`];
    // What follows each value: a comma, the end of its row, or the end of the statement.
    list.forEach((_, r) =>
      keys.forEach((__, k) =>
        strings!.push(
          k < keys.length - 1 ? ', ' : r < list.length - 1 ? '), (' : returning ? ') returning *' : ')',
        ),
      ),
    );
    if (insertTexts.size < MAX_INSERT_TEXTS) insertTexts.set(cacheKey, strings);
  }
  const values: unknown[] = [];
  for (const row of list) {
    for (const key of keys) {
      const value = row[key];
      values.push(value === undefined || value === null ? null : columns[key]!.mapToDriverValue(value));
    }
  }
  return new Statement(strings, values);
}

/** A row of `table` from the driver's answer (column names), each value mapped as drizzle maps it. */
export function fromDriver<T extends Table>(table: T, raw: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table) as Columns)) {
    const value = raw[column.name];
    row[key] = value === undefined || value === null ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}

/** Items one statement combines at most. */
const MAX_COMBINED = 100;

/**
 * Writes of one kind that can share a statement: the statement for `items`, whose rows each carry `n`,
 * the index of the item they answer. Its text should not depend on how many items there are (pass them
 * as one JSON value), so that it is prepared once.
 */
export type Combine<I> = (items: readonly I[]) => Statement;

type Row = Record<string, unknown> & { n?: number };
interface Pending {
  combine: Combine<unknown>;
  item: unknown;
  resolve(rows: Row[]): void;
  reject(error: unknown): void;
}
type Send = (combine: Combine<unknown>, item: unknown, key: string) => Promise<Row[]>;
const senders = new WeakMap<object, Send>();

/**
 * Writes that contend for a row every writer of a `key` updates (an organization's credit plan: each
 * answer's charge), combined. Sent one by one, each would hold that row's lock until its commit has been
 * flushed to disk, concurrent answers queueing behind one flush each, every waiter holding a connection.
 * Instead a key has one statement at a time: the items that come while it runs wait in this process,
 * and those of one kind then go in one statement (`combine`, at most `MAX_COMBINED` items): one round
 * trip, one plan execution and one flush for all, no lock waits. A statement holds one key's writes only,
 * so two never wait for each other's rows in opposite orders. When a combined statement fails, its items
 * run again one by one: an item only ever fails with its own error. Each caller's promise settles with
 * its own rows (those whose `n` is its index) once the statement is committed.
 */
export function writeTogether<I, R = Row>(db: Db, key: string, combine: Combine<I>, item: I): Promise<R[]> {
  const client = (db as unknown as { $client: RawClient }).$client;
  let send = senders.get(client);
  if (!send) senders.set(client, (send = combiner(client)));
  return send(combine as Combine<unknown>, item, key) as Promise<R[]>;
}

function combiner(client: RawClient): Send {
  /** Per key, the items waiting for its next statement; a key is here while one runs or is due. */
  const keys = new Map<string, Pending[]>();
  const query = async (statement: Statement): Promise<Row[]> => {
    const { text, values } = render(statement);
    return (await client.query(text, values)).rows as Row[];
  };
  async function send(combine: Combine<unknown>, batch: Pending[]): Promise<void> {
    try {
      const rows = await query(combine(batch.map((p) => p.item)));
      const answers = batch.map((): Row[] => []);
      for (const row of rows) answers[Number(row.n ?? 0)]?.push(row);
      batch.forEach((p, i) => p.resolve(answers[i]!));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      for (const p of batch) await query(combine([p.item])).then(p.resolve, p.reject);
    }
  }
  async function drain(key: string) {
    const waiting = keys.get(key)!;
    try {
      while (waiting.length > 0) {
        // The first waiting item's kind, with the items of that kind after it (in their order).
        const { combine } = waiting[0]!;
        const batch: Pending[] = [];
        for (let i = 0; i < waiting.length && batch.length < MAX_COMBINED;) {
          if (waiting[i]!.combine === combine) batch.push(...waiting.splice(i, 1));
          else i++;
        }
        await send(combine, batch);
      }
    } catch (error) {
      waiting.splice(0).forEach((p) => p.reject(error)); // never left waiting
    } finally {
      keys.delete(key);
    }
  }
  return (combine, item, key) =>
    new Promise((resolve, reject) => {
      let waiting = keys.get(key);
      if (!waiting) {
        keys.set(key, (waiting = []));
        // What comes in the rest of this turn of the event loop joins the first statement.
        setImmediate(() => void drain(key));
      }
      waiting.push({ combine, item, resolve, reject });
    });
}
