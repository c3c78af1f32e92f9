import { describe, expect, it } from 'vitest';
import { KnowledgeError, Params, compileFilter, type MetadataFilter } from '../src';

describe('compileFilter', () => {
  it('puts every value and field name in parameters, never in the SQL text', () => {
    const hostile = "x'); DROP TABLE kb._collections; --";
    // Dots split a field into path segments: each segment is its own parameter.
    const hostileField = "x'); DROP TABLE victim; --";
    const filter: MetadataFilter = {
      or: [
        { field: hostileField, op: 'eq', value: hostile },
        { field: 'a.b', op: 'in', value: [hostile, 1] },
        {
          and: [
            { field: 'n', op: 'gt', value: 3 },
            { field: 'title', op: 'contains', value: hostile },
          ],
        },
      ],
    };
    const params = new Params();
    const text = compileFilter(filter, 't.metadata', params);
    expect(text).not.toContain('DROP');
    expect(text).not.toContain(hostile);
    expect(text).not.toContain("'a'");
    expect(text).not.toContain('victim');
    expect(params.values).toEqual([
      hostileField,
      JSON.stringify(hostile),
      'a',
      'b',
      JSON.stringify([hostile, 1]),
      'n',
      '3',
      'title',
      hostile,
      JSON.stringify(hostile),
    ]);
    // Placeholders are numbered in order, each used where its value belongs.
    expect(text.match(/\$\d+/g)?.map((p) => Number(p.slice(1)))).toContain(params.values.length);
  });

  it('refuses filters past the size and depth limits', () => {
    let deep: MetadataFilter = { field: 'a', op: 'eq', value: 1 };
    for (let i = 0; i < 12; i++) deep = { and: [deep] };
    expect(() => compileFilter(deep, 'm', new Params())).toThrow(KnowledgeError);
    const wide: MetadataFilter = {
      or: Array.from({ length: 250 }, () => ({ field: 'a', op: 'eq' as const, value: 1 })),
    };
    expect(() => compileFilter(wide, 'm', new Params())).toThrow(/at most 200/);
  });
});
