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

interface PoolLike extends RawClient {
  connect(): Promise<RawClient & { release(error?: Error | boolean): void }>;
}

/** Statements one transaction takes at most. */
const MAX_TOGETHER = 50;
const together = new WeakMap<object, (statement: Statement, key: string) => Promise<unknown[]>>();

/**
 * `statementRows` for writes that contend for a row every caller of a `key` updates (an
 * organization's credit plan: each answer's charge). Sent one by one, each holds that row's lock until
 * its commit has been flushed to disk, so concurrent answers queue behind one flush each, every waiter
 * holding a connection. Instead, a key has at most one transaction at a time: the statements that come
 * while it runs wait in this process and all run in the next one, one after another (at most
 * `MAX_TOGETHER` per transaction): one flush for all, no lock waits, and each still sees the row as the
 * one before it left it. A transaction holds one key's statements only, so two never wait for each
 * other's rows in opposite orders. When one fails, the others run again one by one: a statement only
 * ever fails with its own error. Each caller's promise settles once its statement is committed. On a
 * client without a pool (PGlite in this process) each statement runs alone.
 */
export function statementRowsTogether<T>(db: Db, statement: Statement, key: string): Promise<T[]> {
  const client = (db as unknown as { $client: RawClient & Partial<PoolLike> }).$client;
  if (typeof client.connect !== 'function') return statementRows<T>(db, statement);
  let send = together.get(client);
  if (!send) together.set(client, (send = batcher(client as PoolLike)));
  return send(statement, key) as Promise<T[]>;
}

interface Pending {
  statement: Statement;
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

function batcher(pool: PoolLike): (statement: Statement, key: string) => Promise<unknown[]> {
  /** Per key, the statements waiting for its next transaction; a key is here while one runs or is due. */
  const keys = new Map<string, Pending[]>();
  const alone = (item: Pending) => {
    const { text, values } = render(item.statement);
    return pool.query(text, values).then((r) => item.resolve(r.rows), item.reject);
  };
  async function transaction(batch: Pending[]): Promise<void> {
    if (batch.length === 1) return alone(batch[0]!);
    let connection: Awaited<ReturnType<PoolLike['connect']>> | null = null;
    const results: unknown[][] = [];
    try {
      connection = await pool.connect();
      await connection.query('begin', []);
      for (const item of batch) {
        const { text, values } = render(item.statement);
        results.push((await connection.query(text, values)).rows);
      }
      await connection.query('commit', []);
    } catch {
      if (connection) await connection.query('rollback', []).catch(() => undefined);
      connection?.release(true); // not reused: it may be broken
      connection = null;
      await Promise.all(batch.map(alone));
      return;
    } finally {
      connection?.release();
    }
    batch.forEach((item, i) => item.resolve(results[i]!));
  }
  async function drain(key: string) {
    const waiting = keys.get(key)!;
    try {
      while (waiting.length > 0) await transaction(waiting.splice(0, MAX_TOGETHER));
    } catch (error) {
      waiting.splice(0).forEach((item) => item.reject(error)); // never left waiting
    } finally {
      keys.delete(key);
    }
  }
  return (statement, key) =>
    new Promise((resolve, reject) => {
      let waiting = keys.get(key);
      if (!waiting) {
        keys.set(key, (waiting = []));
        // What comes in the rest of this turn of the event loop joins the first transaction.
        setImmediate(() => void drain(key));
      }
      waiting.push({ statement, resolve, reject });
    });
}
