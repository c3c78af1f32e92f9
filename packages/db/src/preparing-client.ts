import { createHash } from 'node:crypto';
import pg from 'pg';

/** A statement text seen this many times is prepared. */
const PREPARE_AFTER = 2;
/** Distinct statements prepared at most: a connection keeps each one in the database's memory. */
const MAX_PREPARED = 400;
/** Texts counted at most before the count starts over (texts that vary never reach PREPARE_AFTER). */
const MAX_COUNTED = 5000;

/**
 * A pg client that prepares the statements the process sends again and again: a parameterized
 * statement seen twice gets a name (from its text), so each connection parses and plans it once and
 * then only binds and executes it. Parsing and planning were a large part of the database's work per
 * chat answer (the run, message and log statements are long CTEs), on PGlite above all.
 *
 * Only statements with parameters are named (no DDL or multi-statement text); a statement's name is
 * the hash of its text, so it never names two texts. PostgreSQL plans a prepared statement again by
 * itself when a table it uses changes, except when its result columns change (`select *` from a table
 * that gained a column, a table dropped and made again with other columns): that text then gets a new
 * name, prepared afresh, and the call is retried once outside a transaction (the failed call executed
 * nothing).
 */
export function preparingClient(): typeof pg.Client {
  const counts = new Map<string, number>();
  const names = new Map<string, string>();
  let generation = 0;

  function nameOf(text: string): string | undefined {
    const known = names.get(text);
    if (known || names.size >= MAX_PREPARED) return known;
    const seen = (counts.get(text) ?? 0) + 1;
    if (seen < PREPARE_AFTER) {
      if (counts.size >= MAX_COUNTED) counts.clear();
      counts.set(text, seen);
      return undefined;
    }
    counts.delete(text);
    const name = `p_${createHash('sha1').update(`${generation}:${text}`).digest('base64url').slice(0, 20)}`;
    names.set(text, name);
    return name;
  }

  /** The text's plan no longer fits its tables: the next call prepares it under a new name. */
  function forget(text: string): void {
    names.delete(text);
    generation += 1;
  }

  class PreparingClient extends pg.Client {}
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  PreparingClient.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args;
    const params = (config as pg.QueryConfig | null)?.values ?? values;
    if (!Array.isArray(params) || params.length === 0) return query.apply(this, args);
    // pg-pool calls with a callback; drizzle's own clients (transactions) without.
    const callback = typeof args.at(-1) === 'function' ? (args.at(-1) as Callback) : undefined;
    let named: pg.QueryConfig | undefined;
    if (typeof config === 'string') {
      const name = nameOf(config);
      if (name) named = { text: config, values: params, name };
    } else if (
      config &&
      typeof config === 'object' &&
      !(config as pg.QueryConfig).name &&
      typeof (config as { submit?: unknown }).submit !== 'function'
    ) {
      const name = nameOf((config as pg.QueryConfig).text);
      if (name) named = { ...(config as pg.QueryConfig), values: params, name };
    }
    if (!named) return query.apply(this, args);
    const text = named.text;
    const result = (query.call(this, named) as Promise<unknown>).catch((error: unknown) => {
      if (!isStalePlan(error)) throw error;
      forget(text);
      // 'I': idle, no transaction block (in one, 'E' now: the block is failed and must end).
      const status = (this as unknown as { getTransactionStatus(): string | null }).getTransactionStatus();
      if (status !== 'I') throw error;
      return query.call(this, { ...named, name: nameOf(text) ?? undefined });
    });
    if (!callback) return result;
    result.then(
      (answer) => callback(null, answer),
      (error: unknown) => callback(error),
    );
    return undefined;
  } as typeof pg.Client.prototype.query;
  return PreparingClient;
}

type Callback = (error: unknown, result?: unknown) => void;

/** PostgreSQL's answer to a prepared statement whose result columns changed under it. */
function isStalePlan(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: string }).code === '0A000' &&
    /cached plan must not change result type/.test(error.message)
  );
}
