/** Writes made in the same turn of the event loop share one statement: at most this many. */
const MAX_BATCH = 200;

/** Runs a batch in one statement; when it fails, one item at a time, so an item only takes its own error. */
export function isolating<T, R>(write: (items: T[]) => Promise<R[]>) {
  return groupCommit<T, { ok: R } | { error: unknown }>(async (items) => {
    try {
      return (await write(items)).map((ok) => ({ ok }));
    } catch (error) {
      if (items.length === 1) return [{ error }];
      return Promise.all(
        items.map((item) =>
          write([item]).then(
            ([ok]) => ({ ok: ok! }),
            (e: unknown) => ({ error: e }),
          ),
        ),
      );
    }
  });
}

/**
 * Group commit: calls made in the same turn of the event loop share one statement. Under load a
 * runner claims and finishes dozens of runs per turn, and each round trip to the database costs more
 * CPU than a whole small run; alone, a call waits only for the current turn to end.
 */
export function groupCommit<T, R>(flush: (items: T[]) => Promise<R[]>) {
  const pending: { item: T; resolve(r: R): void; reject(e: unknown): void }[] = [];
  const run = () => {
    const batch = pending.splice(0, MAX_BATCH);
    if (pending.length > 0) setImmediate(run);
    flush(batch.map((p) => p.item)).then(
      (results) => batch.forEach((p, i) => p.resolve(results[i]!)),
      (error: unknown) => batch.forEach((p) => p.reject(error)),
    );
  };
  return (item: T) =>
    new Promise<R>((resolve, reject) => {
      if (pending.length === 0) setImmediate(run);
      pending.push({ item, resolve, reject });
    });
}

/**
 * Per key, one call at a time, in the order they came: a call waits for the one before it with the same
 * key to settle (whatever its outcome). Keeps two writes of one key out of one group commit, in order.
 */
export function oneAtATimePer<K>() {
  const last = new Map<K, Promise<unknown>>();
  return <T>(key: K, start: () => Promise<T>): Promise<T> => {
    const before = last.get(key);
    const mine = before ? before.then(start, start) : start();
    last.set(key, mine);
    const forget = () => {
      if (last.get(key) === mine) last.delete(key);
    };
    mine.then(forget, forget);
    return mine;
  };
}

/**
 * Reads of one row by id made in the same turn of the event loop share one statement: `read` answers the
 * rows of the ids it is given (in any order), `idOf` names a row's id. A missing row is null; an id
 * that fails the read (a malformed one) fails alone.
 */
export function readTogether<R>(read: (ids: string[]) => Promise<R[]>, idOf: (row: R) => string) {
  const load = isolating(async (ids: string[]): Promise<(R | null)[]> => {
    const byId = new Map((await read(ids)).map((row) => [idOf(row), row]));
    return ids.map((id) => byId.get(id) ?? null);
  });
  return async (id: string): Promise<R | null> => {
    const result = await load(id);
    if ('error' in result) throw result.error;
    return result.ok;
  };
}
