import { describe, expect, it } from 'vitest';
import { readTogether } from '../src';

// Reads by id of one turn share one read (src/group-commit.ts).
describe('readTogether', () => {
  const rows = new Map([
    ['a', { id: 'a', v: 1 }],
    ['b', { id: 'b', v: 2 }],
  ]);

  it('reads the ids of one turn at once, each answered its own row or null', async () => {
    const calls: string[][] = [];
    const read = readTogether(
      async (ids: string[]) => {
        calls.push(ids);
        return ids.flatMap((id) => (rows.has(id) ? [rows.get(id)!] : [])).reverse();
      },
      (row) => row.id,
    );
    expect(await Promise.all([read('a'), read('missing'), read('b'), read('a')])).toEqual([
      rows.get('a'),
      null,
      rows.get('b'),
      rows.get('a'),
    ]);
    expect(calls).toEqual([['a', 'missing', 'b', 'a']]);
    await read('b'); // a later turn: a read of its own
    expect(calls).toHaveLength(2);
  });

  it('an id that fails the read fails alone', async () => {
    const read = readTogether(
      async (ids: string[]) => {
        if (ids.includes('bad')) throw new Error('invalid input syntax for type uuid: "bad"');
        return ids.flatMap((id) => (rows.has(id) ? [rows.get(id)!] : []));
      },
      (row) => row.id,
    );
    const results = await Promise.allSettled([read('a'), read('bad'), read('b')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseFulfilledResult<unknown>).value).toEqual(rows.get('b'));
  });
});
