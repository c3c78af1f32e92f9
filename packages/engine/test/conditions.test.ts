import type { Condition } from '@atelier/schemas';
import { describe, expect, it } from 'vitest';
import { chooseBranch, evaluateCondition } from '../src';

const check = (left: unknown, operator: Condition['operator'], right?: unknown) =>
  evaluateCondition({ left, operator, right });

describe('evaluateCondition', () => {
  it('compares strings', () => {
    expect(check('apple', 'equals', 'apple')).toBe(true);
    expect(check('apple', 'equals', 'Apple')).toBe(false);
    expect(check('apple', 'not_equals', 'pear')).toBe(true);
    expect(check('pineapple', 'contains', 'apple')).toBe(true);
    expect(check('pineapple', 'not_contains', 'kiwi')).toBe(true);
    expect(check('pineapple', 'starts_with', 'pine')).toBe(true);
    expect(check('pineapple', 'ends_with', 'pine')).toBe(false);
  });

  it('compares numbers, including numbers written as text', () => {
    expect(check(10, 'gt', '9')).toBe(true);
    expect(check('10', 'gt', 9)).toBe(true);
    expect(check(10, 'gte', 10)).toBe(true);
    expect(check(3, 'lt', '3')).toBe(false);
    expect(check(3, 'lte', '3')).toBe(true);
    expect(check(3, 'equals', '3.0')).toBe(true);
    expect(check('abc', 'gt', 1)).toBe(false);
    expect(check(null, 'lt', 1)).toBe(false);
  });

  it('compares booleans and truthiness', () => {
    expect(check(true, 'equals', 'true')).toBe(true);
    expect(check(false, 'equals', 'true')).toBe(false);
    expect(check(true, 'is_true')).toBe(true);
    expect(check('TRUE', 'is_true')).toBe(true);
    expect(check('yes', 'is_true')).toBe(false);
    expect(check(0, 'is_false')).toBe(true);
    expect(check(false, 'is_false')).toBe(true);
  });

  it('looks into arrays and measures lengths', () => {
    expect(check(['a', 'b'], 'contains', 'b')).toBe(true);
    expect(check([1, 2], 'contains', '2')).toBe(true);
    expect(check([1, 2], 'not_contains', 3)).toBe(true);
    expect(check([1, 2, 3], 'length_eq', 3)).toBe(true);
    expect(check('hello', 'length_gt', '4')).toBe(true);
    expect(check([], 'length_lt', 1)).toBe(true);
    expect(check({ a: 1, b: 2 }, 'length_gte', 2)).toBe(true);
    expect(check([1], 'length_lte', 0)).toBe(false);
    expect(check({ a: 1 }, 'equals', { a: 1 })).toBe(true);
  });

  it('tells emptiness', () => {
    for (const empty of [null, undefined, '', '   ', [], {}]) expect(check(empty, 'is_empty')).toBe(true);
    for (const full of ['x', 0, false, [0], { a: 1 }]) expect(check(full, 'is_not_empty')).toBe(true);
  });

  it('checks membership in a list given as JSON or comma-separated text', () => {
    expect(check('fr', 'in', 'en, fr, de')).toBe(true);
    expect(check(2, 'in', '[1, 2, 3]')).toBe(true);
    expect(check('es', 'not_in', ['en', 'fr'])).toBe(true);
  });
});

describe('chooseBranch', () => {
  const branch = (id: string, logic: 'and' | 'or', conditions: Condition[]) => ({ id, logic, conditions });

  it('takes the first matching branch, combining conditions with and / or, else the else handle', () => {
    const branches = [
      branch('big', 'and', [
        { left: 12, operator: 'gt', right: 10 },
        { left: 'x', operator: 'equals', right: 'y' },
      ]),
      branch('either', 'or', [
        { left: 12, operator: 'gt', right: 100 },
        { left: 'x', operator: 'equals', right: 'x' },
      ]),
      branch('later', 'and', [{ left: 1, operator: 'equals', right: 1 }]),
    ];
    expect(chooseBranch(branches)).toBe('either');
    expect(chooseBranch([branches[0]!])).toBe('else');
  });

  it('never takes a branch without conditions', () => {
    expect(chooseBranch([branch('if', 'and', [])])).toBe('else');
  });
});
